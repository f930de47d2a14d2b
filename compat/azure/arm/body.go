package arm

import (
	"bytes"
	"io"
	"net/http"

	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// MaxBody bounds an ARM request body; ARM itself refuses bodies over 4 MB.
const MaxBody = 4 << 20

// ReadBody reads a request body that must be present: an empty one is 400
// InvalidRequestContent, one over MaxBody 413.
func ReadBody(r *http.Request) ([]byte, *Error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	switch {
	case err != nil:
		return nil, BadRequest("The request body could not be read: %v.", err)
	case len(b) > MaxBody:
		return nil, &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeRequestTooLarge, Message: "The request body is over 4 MB."}
	case len(bytes.TrimSpace(b)) == 0:
		return nil, &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequestContent,
			Message: "The request content was invalid and could not be deserialized: the body is empty."}
	}
	return b, nil
}

// BadContent is the 400 ARM answers for a body it cannot deserialize. The
// message speaks of JSON paths and JSON kinds, as ARM's does.
func BadContent(err error) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequestContent,
		Message: "The request content was invalid and could not be deserialized: '" + jsonerr.Describe(err, nil, nil) + "'."}
}
