package queue

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"sync/atomic"
)

// Lock tokens are opaque base64 strings, like the service's. GridBridge's
// carry a marker, the queue's random id and a sequence number, so a token
// that was never issued by GridBridge can be told from one that was issued
// and has since been settled, expired or superseded.
const (
	tokenMarker0 = 'G'
	tokenMarker1 = 'B'
	tokenLen     = 2 + 8 + 8
)

type tokenSource struct {
	queueID [8]byte
	seq     atomic.Uint64
}

func newTokenSource() *tokenSource {
	t := &tokenSource{}
	_, _ = rand.Read(t.queueID[:])
	return t
}

// next issues a token no delivery has had before.
func (t *tokenSource) next() string {
	var b [tokenLen]byte
	b[0], b[1] = tokenMarker0, tokenMarker1
	copy(b[2:10], t.queueID[:])
	binary.BigEndian.PutUint64(b[10:], t.seq.Add(1))
	return base64.StdEncoding.EncodeToString(b[:])
}

// wellFormed reports whether tok has the shape of a GridBridge lock token.
func wellFormed(tok string) bool {
	if base64.StdEncoding.DecodedLen(len(tok)) < tokenLen {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(tok)
	return err == nil && len(b) == tokenLen && b[0] == tokenMarker0 && b[1] == tokenMarker1
}
