package namespaces

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/entra"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

// ARM path templates (compat/azure/arm matches their literals in any
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
// (W-NS-5.2).
func (s *Service) armEndpoints() []arm.Endpoint {
	return slices.Concat(
		[]arm.Endpoint{
			arm.List(azureSubscription+namespacesPath, s.listNamespaces),
			arm.List(resourceGroup+namespacesPath, s.listNamespaces),
			arm.List(namespacePath+"/topics", read(s, s.findNamespace, infallible(listTopics))),
			arm.List(topicPath+"/eventSubscriptions", read(s, s.findTopic, infallible(listEventSubscriptions))),
		},
		arm.Resource{
			Get: read(s, s.findNamespace, infallible(s.namespaceView)), Put: s.putNamespace, Patch: s.patchNamespace,
			Delete:  remove(s, s.findNamespace, s.detachNamespace, reasonNamespaceDeleted),
			Actions: s.keyActions(s.namespaceKeys),
		}.At(namespacePath),
		arm.Resource{
			Get: read(s, s.findTopic, infallible(topicView)), Put: s.putTopic, Patch: s.putTopic,
			Delete:  remove(s, s.findTopic, detachTopic, reasonTopicDeleted),
			Actions: s.keyActions(s.topicKeys),
		}.At(topicPath),
		arm.Resource{
			Get: read(s, s.findEventSubscription, infallible(subscriptionView)), Put: s.putEventSubscription, Patch: s.putEventSubscription,
			Delete: remove(s, s.findEventSubscription, detachEventSubscription, reasonSubscriptionDeleted),
			Actions: []arm.Action{
				// getFullUrl reveals a push webhook's URL, query included;
				// getDeliveryAttributes the attributes, secrets included.
				{Name: "getFullUrl", Handle: read(s, s.findEventSubscription, fullURL)},
				{Name: "getDeliveryAttributes", Handle: read(s, s.findEventSubscription, infallible(deliveryAttributes))},
			},
		}.At(subscriptionPath),
	)
}

// Register mounts the ARM endpoints of Microsoft.EventGrid/namespaces/** and
// the namespace data plane on r.
func (s *Service) Register(r *mux.Router) {
	// The data plane: the operation is glued to the last segment with ':'
	// ("t1:publish", "sub1:receive"), so the handlers split it themselves.
	// The SDKs send "eventsubscriptions" in lower case; match any case.
	// Both paths are matched by hand (parseDataPath) rather than by
	// mux's path templates: every publish, receive and settle is routed,
	// and the templates' regular expressions, run once to match and again
	// to extract the variables, cost as much as a receive's own work. Its
	// paths are no ARM path, so it goes before the ARM table's routes,
	// which are then not tried first.
	r.MatcherFunc(func(req *http.Request, _ *mux.RouteMatch) bool {
		_, ok := parseDataPath(req.URL.Path)
		return ok
	}).Handler(entra.OnPlane(entra.EventGridPlane(), s.dataHandler()))

	arm.NewTable(arm.Options{RequireAPIVersion: true}, s.armEndpoints()...).Mount(r)
}

// dataPath is a data-plane request's path: topic is empty for a topic
// operation ({prefix}{namespace}/topics/{topic}:publish) and set for a
// subscription's ({prefix}{namespace}/topics/{topic}/eventsubscriptions/
// {subscription}:{operation}); operation is the last segment, name and
// operation still glued with ':'.
type dataPath struct {
	namespace, topic, operation string
}

// parseDataPath reads the two data-plane paths, their keywords (topics,
// eventsubscriptions) in any letter case, every other segment non-empty,
// nothing after the operation: what the path templates
// {prefix}{namespace}/topics/{topicOperation} and
// .../topics/{topic}/eventsubscriptions/{subscriptionOperation} matched.
func parseDataPath(path string) (dataPath, bool) {
	rest, ok := strings.CutPrefix(path, DataPlanePrefix)
	if !ok {
		return dataPath{}, false
	}
	var seg [5]string
	n := 0
	for n < len(seg) {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			seg[n], rest = rest, ""
			n++
			break
		}
		seg[n], rest = rest[:i], rest[i+1:]
		n++
	}
	if rest != "" || (n != 3 && n != 5) || !strings.EqualFold(seg[1], "topics") {
		return dataPath{}, false
	}
	for _, s := range seg[:n] {
		if s == "" {
			return dataPath{}, false
		}
	}
	if n == 3 {
		return dataPath{namespace: seg[0], operation: seg[2]}, true
	}
	if !strings.EqualFold(seg[3], "eventsubscriptions") {
		return dataPath{}, false
	}
	return dataPath{namespace: seg[0], topic: seg[2], operation: seg[4]}, true
}

// writeBody is the prologue of a PUT or PATCH: a PUT may create, so its
// name is checked first; then the body is read.
func writeBody(r *arm.Request, kind, name string) ([]byte, *arm.Error) {
	if r.Method == http.MethodPut {
		if err := armmodel.ValidateName(kind, name); err != nil {
			return nil, err
		}
	}
	return r.ReadBody()
}

// read answers 200 with what view makes of the resource find looks up,
// under the read lock.
func read[T any](s *Service, find func(*arm.Request) (T, *arm.Error), view func(T) (any, *arm.Error)) arm.Handler {
	return func(r *arm.Request) (arm.Response, *arm.Error) {
		s.mu.RLock()
		defer s.mu.RUnlock()
		found, err := find(r)
		if err != nil {
			return arm.Response{}, err
		}
		body, err := view(found)
		if err != nil {
			return arm.Response{}, err
		}
		return arm.OK(body), nil
	}
}

// infallible is a view that cannot fail, for read.
func infallible[T, V any](view func(T) V) func(T) (any, *arm.Error) {
	return func(found T) (any, *arm.Error) { return view(found), nil }
}

// remove answers a DELETE: under the lock, detach unlinks the resource find
// looks up and returns the event subscriptions it held, whose deliveries
// stop (journalled with reason) once the lock is released. ARM answers 200
// when something was deleted and 204 when nothing existed.
func remove[T any](s *Service, find func(*arm.Request) (T, *arm.Error), detach func(*arm.Request, T) []*subscriptionState, reason string) arm.Handler {
	return func(r *arm.Request) (arm.Response, *arm.Error) {
		s.mu.Lock()
		found, err := find(r)
		if err != nil {
			s.mu.Unlock()
			return arm.NoContent(), nil
		}
		subs := detach(r, found)
		s.mu.Unlock()
		for _, es := range subs {
			s.stopDelivery(es, reason)
		}
		return arm.Response{Status: http.StatusOK}, nil
	}
}
