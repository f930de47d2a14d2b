package namespaces

import (
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/queue"
)

// The resource tree. Every field is guarded by Service.mu, except where a
// comment says otherwise: delivery callbacks read the atomics without it.

type namespaceState struct {
	res    armmodel.Namespace
	keys   [2]string
	topics map[string]*topicState // lower-case name
}

type topicState struct {
	ns   *namespaceState
	res  armmodel.Topic
	keys [2]string
	subs map[string]*subscriptionState // lower-case name
	// subList is subs in creation order, rebuilt on change, so a publish
	// walks a slice rather than a map.
	subList []*subscriptionState
}

type subscriptionState struct {
	topic *topicState
	res   armmodel.EventSubscription
	// Names as created, the journal route and labels: fixed for the
	// subscription's life, read by callbacks.
	namespace, topicName, name string
	route                      string
	labels                     map[string]string
	// runtime is read by delivery callbacks without Service.mu.
	runtime atomic.Pointer[subscriptionRuntime]
	// queue is set for Queue mode, nil for Push mode (then route is an
	// engine route).
	queue *queue.Queue
	// seq orders subList by creation.
	seq uint64
	// pull counts how the events a queue ended were dead-lettered.
	pull pullOutcomes
}

// pullOutcomes count what became of a queue subscription's ended events.
type pullOutcomes struct {
	deadLettered, dropped, deadLetterFailed atomic.Uint64
}

// subscriptionRuntime is what delivery needs, swapped as a whole on change.
type subscriptionRuntime struct {
	settings  armmodel.Settings
	retention time.Duration
}

// timeToLive is the subscription's TTL capped by the topic's current
// retention (which a topic PATCH may have shortened).
func (rt *subscriptionRuntime) timeToLive() time.Duration {
	return min(rt.settings.TimeToLive, rt.retention)
}

func armKey(sub, rg, name string) string {
	return strings.ToLower(sub) + "/" + strings.ToLower(rg) + "/" + strings.ToLower(name)
}

func lower(s string) string { return strings.ToLower(s) }

// namespaceByName finds a namespace for the data plane.
func (s *Service) namespaceByName(name string) *namespaceState { return s.byName[lower(name)] }

func (t *topicState) rebuildSubList() {
	t.subList = t.subList[:0:0]
	for _, sub := range t.subs {
		t.subList = append(t.subList, sub)
	}
	sort.Slice(t.subList, func(i, j int) bool { return t.subList[i].seq < t.subList[j].seq })
}

// sortedNames returns the keys of m in name order, for ARM lists.
func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
