package resource

import (
	"net/http"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/internal/jsonerr"
)

// BadContent is the 400 ARM answers for a body it cannot deserialize. The
// message speaks of JSON paths and JSON kinds, as ARM's does.
func BadContent(err error) *arm.Error {
	return &arm.Error{Status: http.StatusBadRequest, Code: arm.CodeInvalidRequestContent,
		Message: "The request content was invalid and could not be deserialized: '" + jsonerr.Describe(err, nil, nil) + "'."}
}

// NotFound is a 404 ResourceNotFound for the resource named by what, e.g.
// "Microsoft.EventGrid/topics/t1".
func NotFound(what, resourceGroup string) *arm.Error {
	return arm.NotFound("The Resource '%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix", what, resourceGroup)
}
