package uuidseq_test

import (
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/internal/uuidseq"
)

// Ids from several goroutines and two sources are all distinct, each a
// version-4 UUID in its canonical form.
func TestIDsAreDistinctVersion4UUIDs(t *testing.T) {
	t.Parallel()
	var a, b uuidseq.Source
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for _, s := range []*uuidseq.Source{&a, &a, &b, &b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				id := s.Next()
				u, err := uuid.Parse(id)
				if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != id {
					t.Errorf("id %q: %v, version %d, variant %v", id, err, u.Version(), u.Variant())
					return
				}
				mu.Lock()
				if seen[id] {
					t.Errorf("id %q made twice", id)
				}
				seen[id] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 8000 {
		t.Fatalf("%d distinct ids of 8000", len(seen))
	}
}
