package namespaces

import (
	"net/http"
	"regexp"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

// ARM path templates (compat/eventgrid/arm matches their literals in any
// case, as ARM does).
const (
	azureSubscription = "/subscriptions/{subscriptionId}"
	resourceGroup     = azureSubscription + "/resourceGroups/{resourceGroup}"
	namespacesPath    = "/providers/Microsoft.EventGrid/namespaces"
	namespacePath     = resourceGroup + namespacesPath + "/{namespace}"
	topicPath         = namespacePath + "/topics/{topic}"
	subscriptionPath  = topicPath + "/eventSubscriptions/{eventSubscription}"
)

// armEndpoints is the ARM API of namespaces, namespace topics and their
// event subscriptions. Every change is applied within its request and
// answered with provisioningState Succeeded and no polling headers
// (reference §5.2).
func (s *Service) armEndpoints() []arm.Endpoint {
	get, put, patch, del, post := http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodPost
	return []arm.Endpoint{
		{Method: get, Path: azureSubscription + namespacesPath, Handle: s.listNamespaces},
		{Method: get, Path: resourceGroup + namespacesPath, Handle: s.listNamespaces},
		{Method: get, Path: namespacePath, Handle: s.getNamespace},
		{Method: put, Path: namespacePath, Handle: s.putNamespace},
		{Method: patch, Path: namespacePath, Handle: s.patchNamespace},
		{Method: del, Path: namespacePath, Handle: s.deleteNamespace},
		{Method: post, Path: namespacePath + "/listKeys", Handle: s.keys(s.namespaceKeys, false)},
		{Method: post, Path: namespacePath + "/regenerateKey", Handle: s.keys(s.namespaceKeys, true)},

		{Method: get, Path: namespacePath + "/topics", Handle: s.listTopics},
		{Method: get, Path: topicPath, Handle: s.getTopic},
		{Method: put, Path: topicPath, Handle: s.putTopic},
		{Method: patch, Path: topicPath, Handle: s.putTopic},
		{Method: del, Path: topicPath, Handle: s.deleteTopic},
		{Method: post, Path: topicPath + "/listKeys", Handle: s.keys(s.topicKeys, false)},
		{Method: post, Path: topicPath + "/regenerateKey", Handle: s.keys(s.topicKeys, true)},

		{Method: get, Path: topicPath + "/eventSubscriptions", Handle: s.listEventSubscriptions},
		{Method: get, Path: subscriptionPath, Handle: s.getEventSubscription},
		{Method: put, Path: subscriptionPath, Handle: s.putEventSubscription},
		{Method: patch, Path: subscriptionPath, Handle: s.putEventSubscription},
		{Method: del, Path: subscriptionPath, Handle: s.deleteEventSubscription},
		{Method: post, Path: subscriptionPath + "/getFullUrl", Handle: s.getFullURL},
		{Method: post, Path: subscriptionPath + "/getDeliveryAttributes", Handle: s.getDeliveryAttributes},
	}
}

// Register mounts the ARM endpoints of Microsoft.EventGrid/namespaces/** and
// the namespace data plane on r.
func (s *Service) Register(r *mux.Router) {
	arm.NewTable(arm.Options{RequireAPIVersion: true}, s.armEndpoints()...).Mount(r)

	// The data plane: the operation is glued to the last segment with ':'
	// ("t1:publish", "sub1:receive"), so the handlers split it themselves.
	// The SDKs send "eventsubscriptions" in lower case; match any case.
	data := DataPlanePrefix + "{namespace}/" + ci("topics")
	r.Handle(data+"/{topicOperation}", s.dataHandler(s.publish))
	r.Handle(data+"/{topic}/"+ci("eventsubscriptions")+"/{subscriptionOperation}", s.dataHandler(s.subscriptionOperation))
}

// ci is a path segment that matches word in any letter case.
func ci(word string) string {
	return "{kw_" + word + ":(?i)" + regexp.QuoteMeta(word) + "}"
}

// writeBody is the prologue of a PUT or PATCH: a PUT may create, so its
// name is checked first; then the body is read.
func writeBody(r *arm.Request, kind, name string) ([]byte, *arm.Error) {
	if r.Method == http.MethodPut {
		if err := armmodel.ValidateName(kind, name); err != nil {
			return nil, err
		}
	}
	return r.Body()
}

// deleted is ARM's answer to a DELETE: 200 when something was deleted, 204
// when nothing existed.
func deleted(existed bool) (arm.Response, *arm.Error) {
	if existed {
		return arm.Response{Status: http.StatusOK}, nil
	}
	return arm.NoContent(), nil
}
