// Package armmodel is the ARM management-plane model of Event Grid
// namespaces, namespace topics and namespace-topic event subscriptions
// (api-version 2025-02-15, as armeventgrid/v2 v2.3.0 sends it): request
// decoding, validation with ARM's 400 errors, defaults, and the resource
// bodies the service returns.
package armmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// decode reads a JSON request body into v. Malformed JSON and values of the
// wrong type are 400 InvalidRequestContent, naming the field.
func decode(body []byte, v any) *arm.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeInvalidRequestContent, Message: "The request content was invalid: the body is empty."}
	}
	if err := json.Unmarshal(body, v); err != nil {
		var ae *arm.Error
		if errors.As(err, &ae) {
			return ae
		}
		msg := "the body is not valid JSON"
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field != "":
			msg = fmt.Sprintf("the value of '%s' must not be a JSON %s", te.Field, te.Value)
		case errors.As(err, &te):
			msg = fmt.Sprintf("the body must be a JSON object, not a JSON %s", te.Value)
		case errors.As(err, &se):
			msg = fmt.Sprintf("the body is not valid JSON (offset %d)", se.Offset)
		}
		return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeInvalidRequestContent, Message: "The request content was invalid: " + msg + "."}
	}
	return nil
}
