package awsmodel

// Quick exposes the allocation-free pre-check to the tests.
func (c *Checker) Quick(op string, body []byte) bool {
	o, ok := c.ops[op]
	return ok && o.Input >= 0 && c.quick(body, o.Input)
}
