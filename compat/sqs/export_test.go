package sqs

// Waiting returns how many long polls wait on the queue named name of any
// account, for tests that must act once a poll is waiting.
func (s *Store) Waiting(name string) int {
	n := 0
	for _, q := range s.all() {
		if q.key.name == name {
			q.mu.Lock()
			n += q.waiters
			q.mu.Unlock()
		}
	}
	return n
}
