package resource

import (
	"sort"
	"sync"
)

// Store keeps topics and event subscriptions in memory. Stored values are
// immutable, so what a reader gets stays valid after the lock is released.
type Store struct {
	mu     sync.RWMutex
	topics map[string]*Topic                        // by Key(ID)
	names  map[string]string                        // Key(name) → Key(ID)
	subs   map[string]map[string]*EventSubscription // Key(topic ID) → Key(name)
}

// NewStore returns an empty store.
func NewStore() *Store {
	s := &Store{}
	s.Reset()
	return s
}

// Reset forgets everything.
func (s *Store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.topics = make(map[string]*Topic)
	s.names = make(map[string]string)
	s.subs = make(map[string]map[string]*EventSubscription)
}

// Topic returns the topic with ARM id id, or nil.
func (s *Store) Topic(id string) *Topic {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.topics[Key(id)]
}

// TopicByName returns the topic named name, or nil. Names are unique in
// GridBridge, which plays one region.
func (s *Store) TopicByName(name string) *Topic {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.topics[s.names[Key(name)]]
}

// Topics lists every topic, by id.
func (s *Store) Topics() []*Topic {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Topic, 0, len(s.topics))
	for _, t := range s.topics {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// PutTopic stores t. It refuses, returning the holder, when another topic
// already has t's name (Azure: names are unique per region).
//
// Basic topics and domains share one name space (their endpoints are
// host names in Azure); domain topics and system topics are named only
// within their domain or resource group and take no name here.
func (s *Store) PutTopic(t *Topic) (holder *Topic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !t.Type.publicName() {
		s.topics[t.Key()] = t
		return nil
	}
	if id, ok := s.names[Key(t.Name)]; ok && id != t.Key() {
		return s.topics[id]
	}
	s.topics[t.Key()] = t
	s.names[Key(t.Name)] = t.Key()
	return nil
}

// DeleteTopic removes a topic and its subscriptions and returns them.
func (s *Store) DeleteTopic(id string) (*Topic, []*EventSubscription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.topics[Key(id)]
	if !ok {
		return nil, nil
	}
	delete(s.topics, t.Key())
	if t.Type.publicName() {
		delete(s.names, Key(t.Name))
	}
	subs := sortedSubs(s.subs[t.Key()])
	delete(s.subs, t.Key())
	return t, subs
}

// Subscription returns a topic's event subscription by name, or nil.
func (s *Store) Subscription(topicID, name string) *EventSubscription {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.subs[Key(topicID)][Key(name)]
}

// Subscriptions lists a topic's event subscriptions, by name.
func (s *Store) Subscriptions(topicID string) []*EventSubscription {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sortedSubs(s.subs[Key(topicID)])
}

// CountSubscriptions counts a topic's event subscriptions.
func (s *Store) CountSubscriptions(topicID string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.subs[Key(topicID)])
}

// PutSubscription stores sub if it is still current: prev must be what the
// store holds under its name (nil for a create), so two writers cannot
// silently overwrite each other and a subscription cannot outlive its
// topic. It reports whether sub was stored.
func (s *Store) PutSubscription(sub, prev *EventSubscription) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	topicKey := Key(sub.TopicID)
	if _, ok := s.topics[topicKey]; !ok {
		return false
	}
	if s.subs[topicKey][sub.Key()] != prev {
		return false
	}
	if s.subs[topicKey] == nil {
		s.subs[topicKey] = make(map[string]*EventSubscription)
	}
	s.subs[topicKey][sub.Key()] = sub
	return true
}

// DeleteSubscription removes an event subscription and returns it; with
// only set, it removes it only while it is that value.
func (s *Store) DeleteSubscription(topicID, name string, only *EventSubscription) *EventSubscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	subs := s.subs[Key(topicID)]
	sub := subs[Key(name)]
	if sub == nil || only != nil && sub != only {
		return nil
	}
	delete(subs, Key(name))
	return sub
}

func sortedSubs(m map[string]*EventSubscription) []*EventSubscription {
	out := make([]*EventSubscription, 0, len(m))
	for _, sub := range m {
		out = append(out, sub)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// publicName reports whether resources of this type hold a name in the
// region-wide name space.
func (k ResourceType) publicName() bool { return k == TypeTopic || k == TypeDomain }

// TopicsOfType lists the topics of one type, by id.
func (s *Store) TopicsOfType(typ ResourceType) []*Topic {
	var out []*Topic
	for _, t := range s.Topics() {
		if t.Type == typ {
			out = append(out, t)
		}
	}
	return out
}

// DomainTopics lists a domain's topics, by id.
func (s *Store) DomainTopics(domainID string) []*Topic {
	var out []*Topic
	for _, t := range s.TopicsOfType(TypeDomainTopic) {
		if Key(t.DomainID) == Key(domainID) {
			out = append(out, t)
		}
	}
	return out
}

// PutTopicIfAbsent stores t unless a topic with its id exists, and returns
// the topic stored under that id (t, or the one already there).
func (s *Store) PutTopicIfAbsent(t *Topic) *Topic {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.topics[t.Key()]; ok {
		return cur
	}
	s.topics[t.Key()] = t
	return t
}
