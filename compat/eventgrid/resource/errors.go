package resource

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/eventgrid/arm"
)

// BadContent is the 400 ARM answers for a body it cannot deserialize.
func BadContent(err error) *arm.Error {
	return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeInvalidRequestContent,
		Message: "The request content was invalid and could not be deserialized: '" + err.Error() + "'."}
}

// NotFound is a 404 ResourceNotFound for the resource named by what, e.g.
// "Microsoft.EventGrid/topics/t1".
func NotFound(what, resourceGroup string) *arm.Error {
	return arm.NotFound("The Resource '%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix", what, resourceGroup)
}
