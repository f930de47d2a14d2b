package namespaces

// AvailableEvents reports how many events a receive on the subscription could
// take now, so tests can check that nothing is available without spending a
// receive's 10-second minimum wait. -1 when there is no such Queue-mode
// subscription.
func AvailableEvents(s *Service, namespace, topic, subscription string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ns := s.namespaceByName(namespace)
	if ns == nil {
		return -1
	}
	t := ns.topics[lower(topic)]
	if t == nil {
		return -1
	}
	es := t.subs[lower(subscription)]
	if es == nil || es.queue == nil {
		return -1
	}
	return es.queue.Available()
}
