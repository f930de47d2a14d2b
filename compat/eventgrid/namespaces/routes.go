package namespaces

import (
	"net/http"
	"regexp"

	"github.com/gorilla/mux"
)

// Register mounts the ARM routes of Microsoft.EventGrid/namespaces/** and the
// namespace data plane on r.
func (s *Service) Register(r *mux.Router) {
	sub := "/" + ci("subscriptions") + "/{subscriptionId}"
	rg := sub + "/" + ci("resourceGroups") + "/{resourceGroup}"
	provider := "/" + ci("providers") + "/" + ci("Microsoft.EventGrid") + "/" + ci("namespaces")
	ns := rg + provider + "/{namespace}"
	topic := ns + "/" + ci("topics") + "/{topic}"
	eventSub := topic + "/" + ci("eventSubscriptions") + "/{eventSubscription}"

	arm := func(tpl string, h http.HandlerFunc) { r.Handle(tpl, s.armHandler(h)) }
	arm(sub+provider, s.listNamespacesBySubscription)
	arm(rg+provider, s.listNamespacesByResourceGroup)
	arm(ns, s.namespace)
	arm(ns+"/{action:(?i)listKeys|regenerateKey}", s.namespaceAction)
	arm(ns+"/"+ci("topics"), s.listTopics)
	arm(topic, s.topic)
	arm(topic+"/{action:(?i)listKeys|regenerateKey}", s.topicAction)
	arm(topic+"/"+ci("eventSubscriptions"), s.listEventSubscriptions)
	arm(eventSub, s.eventSubscription)
	arm(eventSub+"/{action:(?i)getFullUrl|getDeliveryAttributes}", s.eventSubscriptionAction)

	// The data plane: the operation is glued to the last segment with ':'
	// ("t1:publish", "sub1:receive"), so the handlers split it themselves.
	// The SDKs send "eventsubscriptions" in lower case; match any case.
	data := DataPlanePrefix + "{namespace}/" + ci("topics")
	r.Handle(data+"/{topicOperation}", s.dataHandler(s.publish))
	r.Handle(data+"/{topic}/"+ci("eventsubscriptions")+"/{subscriptionOperation}", s.dataHandler(s.subscriptionOperation))
}

// ci is a path segment that matches word in any letter case, as ARM matches
// its fixed segments.
func ci(word string) string {
	return "{kw_" + word + ":(?i)" + regexp.QuoteMeta(word) + "}"
}
