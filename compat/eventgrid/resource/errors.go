package resource

import (
	"github.com/gridbridge/gridbridge/compat/azure/arm"
)

// NotFound is a 404 ResourceNotFound for the resource named by what, e.g.
// "Microsoft.EventGrid/topics/t1".
func NotFound(what, resourceGroup string) *arm.Error {
	return arm.NotFound("The Resource '%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix", what, resourceGroup)
}
