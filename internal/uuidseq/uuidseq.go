// Package uuidseq makes ids in a random UUID's form (version 4) from a
// random start drawn once and a count: distinct within a Source, and
// between Sources as random UUIDs are, without asking the system for
// randomness per id. AWS's request ids and SQS's message ids are random
// UUIDs; GridBridge makes one or more per request.
package uuidseq

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
)

// Source makes ids. Its zero value is ready; it must not be copied once
// used.
type Source struct {
	once   sync.Once
	hi, lo uint64
	n      atomic.Uint64
}

// Next returns an id no earlier call returned.
func (s *Source) Next() string {
	s.once.Do(func() {
		var b [16]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		s.hi, s.lo = binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
	})
	var u uuid.UUID
	binary.BigEndian.PutUint64(u[:8], s.hi)
	binary.BigEndian.PutUint64(u[8:], s.lo+s.n.Add(1))
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	return u.String()
}
