package filter

// Azure's documented limits on advanced filters [filtering doc, Limitations].
// The older limits (5 filters, 5 values per In/NotIn filter, keys at most two
// levels deep) are gone from the current docs, so GridBridge does not apply
// them: a key may be nested to any depth.
const (
	// MaxAdvancedFilters is the number of advanced filters one subscription may have.
	MaxAdvancedFilters = 25
	// MaxAdvancedFilterValues is the number of filter values across all the
	// advanced filters of one subscription. A single "value" counts as one, a
	// [low, high] range as one, IsNullOrUndefined and IsNotNull as none.
	MaxAdvancedFilterValues = 25
	// MaxStringValueLength is the length of one string filter value, in
	// UTF-16 code units (the unit of a .NET string, which is what the service
	// measures).
	MaxStringValueLength = 512
)
