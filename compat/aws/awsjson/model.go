package awsjson

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
)

// ModelError is the answer to a request that breaks its model's
// constraints: one exception with code listing every violation in AWS's
// wording, and, when fieldList is set (REST APIs whose ValidationException
// has one), each violation's member and constraint there too. It is nil
// when vs is empty.
func ModelError(vs []awsmodel.Violation, code string, fieldList bool) *Error {
	if len(vs) == 0 {
		return nil
	}
	e := &Error{Code: code, Message: awsmodel.Message(vs), Status: http.StatusBadRequest}
	if fieldList {
		fields := make([]map[string]string, len(vs))
		for i, v := range vs {
			fields[i] = map[string]string{"name": v.Path, "message": v.Constraint()}
		}
		e.Fields = map[string]any{"fieldList": fields}
	}
	return e
}

// CheckREST checks a restJson1 request of operation op against c: its
// path labels, query, headers and JSON body. It returns the API's
// validation error (code, with a fieldList if the API's has one), or nil.
func CheckREST(c *awsmodel.Checker, op string, r *http.Request, labels map[string]string, body []byte, code string, fieldList bool) *Error {
	vs := c.Check(op, awsmodel.Input{Body: body, Labels: labels, Query: r.URL.Query(), Header: r.Header})
	return ModelError(vs, code, fieldList)
}
