package engine

import (
	"bytes"
	"net/http"
	"slices"
	"unsafe"
)

// How the journal stores an attempt's request without copying its events.
//
// An attempt's body is almost always built from the batch's event bodies,
// which the engine already holds once per event (Item.Body, shared by the
// queue, the retry and every attempt entry): one event as it is, or the
// events in a JSON array. The journal keeps which of the two it was and
// refers to the items; any other body is kept as the destination gave it.
// Method, URL and headers repeat from attempt to attempt (only a few
// headers, such as a delivery count, change), so each distinct set is
// interned and shared by every entry that sent it.

// bodyForm says how to rebuild an attempt's request body.
type bodyForm uint8

const (
	bodyNone  bodyForm = iota // no body was recorded
	bodyOwn                   // storedRequest.body holds it
	bodyItem                  // the batch's only event, as stored
	bodyArray                 // the batch's events in a JSON array
)

// requestShape is what an attempt sent apart from its body.
type requestShape struct {
	method string
	url    string
	header http.Header
	// forms are the stored requests of this shape whose body is rebuilt
	// from the entry (none, its item, its items in an array): they hold
	// nothing of their own, so every entry of the shape shares one.
	forms [bodyArray + 1]*storedRequest
}

// stored is the shape's shared stored request of form (not bodyOwn).
func (s *requestShape) stored(form bodyForm) *storedRequest {
	if s.forms[form] == nil {
		s.forms[form] = &storedRequest{shape: s, form: form}
	}
	return s.forms[form]
}

// storedRequest is a journalled attempt's request.
type storedRequest struct {
	shape *requestShape
	body  []byte // bodyOwn only
	form  bodyForm
}

// maxInterned bounds an interner: past it the table starts again (entries
// keep what they point to), so values unique to each attempt cannot grow it
// without bound.
const maxInterned = 4096

// maxInternedText bounds the texts the journal interns.
const maxInternedText = 256

// interner shares equal values between journal entries.
type interner[T any] struct {
	m map[string]T
}

func (in *interner[T]) get(key string, build func() T) T {
	if v, ok := in.m[key]; ok {
		return v
	}
	if in.m == nil || len(in.m) >= maxInterned {
		in.m = map[string]T{}
	}
	v := build()
	in.m[key] = v
	return v
}

// getBytes is get with the key in bytes: looking a value up costs no
// allocation (the key becomes a string only when a new value is stored),
// which matters once per attempt.
func (in *interner[T]) getBytes(key []byte, build func() T) T {
	if v, ok := in.m[string(key)]; ok {
		return v
	}
	return in.get(string(key), build)
}

// compactLocked rewrites e into its stored form: event ids and request body
// derived from e.items where they match, request shape and attempt message
// interned.
func (j *Journal) compactLocked(e *Entry) {
	if len(e.items) > 0 {
		if len(e.EventIDs) == 0 || sameIDs(e.EventIDs, e.items) {
			e.EventIDs = nil
		} else {
			e.items = nil // the ids say otherwise: keep them as given
		}
	}
	if e.Kind == KindAttempt {
		for _, s := range []*string{&e.Message, &e.Destination} {
			if v := *s; v != "" && len(v) <= maxInternedText {
				*s = j.texts.get(v, func() string { return v })
			}
		}
	}
	r := e.Request
	if r == nil {
		return
	}
	e.Request = nil
	j.keyBuf = appendShapeKey(j.keyBuf[:0], r)
	shape := j.shapes.getBytes(j.keyBuf, func() *requestShape {
		return &requestShape{method: r.Method, url: r.URL, header: r.Header.Clone()}
	})
	if cap(j.keyBuf) > maxScratch {
		j.keyBuf = nil
	}
	switch {
	case r.Body == nil:
		e.req = shape.stored(bodyNone)
	case r.ItemsBody && len(e.items) == 1 && len(r.Body) == e.items[0].Len():
		e.req = shape.stored(bodyItem)
	case r.ItemsBody && len(e.items) > 0 && len(r.Body) == arrayLen(e.items):
		e.req = shape.stored(bodyArray)
	case len(e.items) == 1 && j.isBodyOf(r.Body, e.items[0]):
		e.req = shape.stored(bodyItem)
	case len(e.items) > 0 && j.isArrayOf(r.Body, e.items):
		e.req = shape.stored(bodyArray)
	default:
		e.req = &storedRequest{shape: shape, form: bodyOwn, body: r.Body}
	}
}

func sameIDs(ids []string, items []*Item) bool {
	if len(ids) != len(items) {
		return false
	}
	for i, it := range items {
		if it.ID != ids[i] {
			return false
		}
	}
	return true
}

// isBodyOf reports whether body is the item's body. An item whose body is
// rendered on demand is rendered into the journal's scratch buffer (the
// journal's lock is held), so the comparison keeps nothing.
func (j *Journal) isBodyOf(body []byte, it *Item) bool {
	if it.Source == nil {
		return bytes.Equal(body, it.Body)
	}
	if len(body) != it.Size {
		return false
	}
	j.scratch = it.Source.AppendBody(j.scratch[:0])
	ok := bytes.Equal(body, j.scratch)
	if cap(j.scratch) > maxScratch {
		j.scratch = nil
	}
	return ok
}

// maxScratch bounds the scratch buffer the journal keeps between appends.
const maxScratch = 64 << 10

// arrayLen is the length of the items' bodies in a JSON array.
func arrayLen(items []*Item) int {
	n := 2 + len(items) - 1
	for _, it := range items {
		n += it.Len()
	}
	return n
}

// isArrayOf reports whether body is "[" + the items' bodies joined by "," + "]".
func (j *Journal) isArrayOf(body []byte, items []*Item) bool {
	if len(body) < 2 || body[0] != '[' || body[len(body)-1] != ']' {
		return false
	}
	rest := body[1 : len(body)-1]
	for i, it := range items {
		if i > 0 {
			if len(rest) == 0 || rest[0] != ',' {
				return false
			}
			rest = rest[1:]
		}
		n := it.Len()
		if len(rest) < n || !j.isBodyOf(rest[:n], it) {
			return false
		}
		rest = rest[n:]
	}
	return len(rest) == 0
}

// appendShapeKey appends to b what identifies a request's method, URL and
// headers.
func appendShapeKey(b []byte, r *RecordedRequest) []byte {
	b = append(b, r.Method...)
	b = append(b, 0)
	b = append(b, r.URL...)
	b = append(b, 0)
	if r.Header == nil {
		return b // nil and empty headers read back differently
	}
	b = append(b, 1)
	var few [16]string
	keys := few[:0]
	for k := range r.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = append(b, k...)
		b = append(b, 0)
		vs := r.Header[k]
		if vs == nil {
			b = append(b, 2) // a nil value list clones back as nil
		}
		for _, v := range vs {
			b = append(b, v...)
			b = append(b, 1)
		}
		b = append(b, 0)
	}
	return b
}

// entryBytes is the fixed cost of an entry in the journal's ring.
const entryBytes = int64(unsafe.Sizeof(Entry{}))

// size estimates the memory e holds beyond what it shares with the engine's
// events and interned values.
func (e *Entry) size() int64 {
	n := entryBytes + int64(len(e.EventIDs))*16 + int64(len(e.Body))
	if e.NextAttemptAt != nil {
		n += 32
	}
	if e.Kind != KindAttempt {
		n += int64(len(e.Message))
	}
	if e.req != nil {
		n += int64(unsafe.Sizeof(storedRequest{})) + int64(len(e.req.body))
	}
	if e.Request != nil {
		n += 64 + int64(len(e.Request.Body))
	}
	return n
}

// materialize returns e as readers see it: event ids and the full request
// rebuilt, no reference to the journal's stored form.
func (e Entry) materialize() Entry {
	if len(e.items) > 0 {
		e.EventIDs = itemIDs(e.items)
	}
	if sr := e.req; sr != nil {
		r := &RecordedRequest{Method: sr.shape.method, URL: sr.shape.url, Header: sr.shape.header.Clone()}
		switch sr.form {
		case bodyOwn:
			r.Body = sr.body
		case bodyItem:
			r.Body = e.items[0].Bytes()
		case bodyArray:
			n := 1 + len(e.items)
			for _, it := range e.items {
				n += it.Len()
			}
			body := make([]byte, 0, n)
			body = append(body, '[')
			for i, it := range e.items {
				if i > 0 {
					body = append(body, ',')
				}
				body = it.AppendBody(body)
			}
			r.Body = append(body, ']')
		}
		e.Request = r
	}
	e.items, e.req = nil, nil
	return e
}
