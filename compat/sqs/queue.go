package sqs

import (
	"bytes"
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// Queue is one SQS queue. Its mutex guards everything below it; a Queue's
// lock may be held while the store's is taken, never the other way round.
type Queue struct {
	store *Store
	key   queueKey
	arn   string

	mu          sync.Mutex
	cfg         queueConfig
	tags        map[string]string
	created     time.Time
	modified    time.Time
	gone        bool // deleted: waiting receivers return empty
	byID        map[string]*message
	seq         uint64
	nonce       uint64
	ready       []*message // standard: visible messages in arrival order (lazily skips deleted)
	readyHead   int
	timed       timedHeap  // standard: delayed and in-flight messages
	order       []*message // FIFO: live messages in sequence order (lazily skips deleted)
	dedup       map[string]dedupEntry
	nextDedupGC time.Time
	// wake is closed when messages may have become available; nil when no
	// receiver waits.
	wake chan struct{}
	// waiters counts the long polls waiting on wake. While there are any,
	// expiry is a clock timer at the next time a delayed or in-flight
	// message becomes visible (expiryAt), which closes wake: one timer per
	// queue, whatever the number of polls, and none without them.
	waiters  int
	expiry   engine.Timer
	expiryAt time.Time
	// The queue's books (metrics.go): every message that arrived is
	// counted once where it left, or among those it holds.
	counts ledger
	// watchers are the readers told alongside waiting receivers (a pipe
	// reading the queue as its source); the store keeps the list.
	watchers []*watch
}

// dedupEntry remembers a FIFO send for the deduplication interval, so that
// a duplicate is accepted and answered with the original's ids.
type dedupEntry struct {
	until time.Time
	id    string
	seq   uint64
}

// ARN returns the queue's ARN.
func (q *Queue) ARN() string { return q.arn }

// Name returns the queue's name.
func (q *Queue) Name() string { return q.key.name }

// Account returns the id of the account that owns the queue.
func (q *Queue) Account() string { return q.key.account }

func (q *Queue) fifo() bool { return q.key.fifo() }

// notifyLocked wakes waiting receivers and tells the queue's watchers.
func (q *Queue) notifyLocked() {
	q.wakeReceiversLocked()
	for _, w := range q.watchers {
		w.wake()
	}
}

// wakeReceiversLocked wakes the long polls waiting on the queue.
func (q *Queue) wakeReceiversLocked() {
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
}

// nextExpiryLocked is the earliest time a delayed or in-flight message
// becomes visible, zero when none is waiting for its time.
func (q *Queue) nextExpiryLocked(now time.Time) time.Time {
	if !q.fifo() {
		if len(q.timed) == 0 {
			return time.Time{}
		}
		return q.timed[0].visibleAt
	}
	var next time.Time
	for _, m := range q.order {
		if !m.deleted && m.visibleAt.After(now) && (next.IsZero() || m.visibleAt.Before(next)) {
			next = m.visibleAt
		}
	}
	return next
}

// armExpiryLocked makes sure the waiting receivers are woken when the next
// delayed or in-flight message becomes visible, on the emulator clock (a
// virtual clock's advance fires it). A timer already armed no later than
// that is kept: when it fires, the receivers look again and re-arm.
func (q *Queue) armExpiryLocked(now time.Time) {
	next := q.nextExpiryLocked(now)
	if next.IsZero() {
		return
	}
	if q.expiry != nil && !q.expiryAt.After(next) {
		return
	}
	if q.expiry != nil {
		q.expiry.Stop()
	}
	q.expiryAt = next
	var timer engine.Timer
	timer = q.store.clock.AfterFunc(next.Sub(now), func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.expiry == timer {
			q.expiry, q.expiryAt = nil, time.Time{}
		}
		q.wakeReceiversLocked()
	})
	q.expiry = timer
}

// leaveWaitLocked counts a long poll out of the waiters; the last one
// stops the expiry timer, which nobody needs any more.
func (q *Queue) leaveWaitLocked() {
	q.waiters--
	if q.waiters == 0 && q.expiry != nil {
		q.expiry.Stop()
		q.expiry, q.expiryAt = nil, time.Time{}
	}
}

// sendInput is one message to send.
type sendInput struct {
	body     string
	attrs    map[string]AttributeValue
	delay    *time.Duration // nil: the queue's DelaySeconds
	group    string
	dedupID  string
	senderID string
	// traceHeader is the AWSTraceHeader system attribute, empty for none.
	traceHeader string
}

// sendResult is what SendMessage answers for one message.
type sendResult struct {
	id, md5Body, md5Attrs, seq string
}

// send validates and enqueues one message.
func (q *Queue) send(in sendInput) (sendResult, error) {
	if !validBody(in.body) {
		return sendResult{}, errInvalidMessageContents()
	}
	if in.body == "" {
		return sendResult{}, errMissingParameter("MessageBody")
	}
	if err := validateAttributes(in.attrs); err != nil {
		return sendResult{}, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if size := len(in.body) + attributesSize(in.attrs); size > q.cfg.maxSize {
		return sendResult{}, errMessageTooLong(q.cfg.maxSize)
	}
	now := q.store.clock.Now()
	delay := q.cfg.delay
	if in.delay != nil {
		if q.fifo() {
			// A FIFO queue has no per-message delay; SQS refuses one, but
			// lets an explicit 0 through (the queue's DelaySeconds applies).
			if *in.delay != 0 {
				return sendResult{}, errInvalidParameter("Value %d for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.", int(*in.delay/time.Second))
			}
			in.delay = nil
		}
	}
	if in.delay != nil {
		if *in.delay < 0 || *in.delay > maxDelay {
			return sendResult{}, errInvalidParameter("Value %d for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.", int(*in.delay/time.Second))
		}
		delay = *in.delay
	}
	m := &message{
		id: q.store.ids.Next(), body: in.body, attrs: in.attrs, sent: now, senderID: in.senderID, traceHeader: in.traceHeader,
		md5Body: md5HexOf(in.body), md5Attrs: md5OfAttributes(in.attrs),
		visibleAt: now.Add(delay), heapIndex: -1,
	}
	if q.fifo() {
		if in.group == "" {
			return sendResult{}, errMissingParameter("MessageGroupId")
		}
		if !validGroupToken(in.group) {
			return sendResult{}, errInvalidParameter("Value %s for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.", in.group)
		}
		dedupID := in.dedupID
		if dedupID == "" {
			if !q.cfg.contentDedup {
				return sendResult{}, errInvalidParameter("The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")
			}
			sum := sha256.Sum256([]byte(in.body))
			dedupID = hex.EncodeToString(sum[:])
		} else if !validGroupToken(dedupID) {
			return sendResult{}, errInvalidParameter("Value %s for parameter MessageDeduplicationId is invalid. Reason: MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.", dedupID)
		}
		q.gcDedupLocked(now)
		if d, ok := q.dedup[dedupID]; ok && now.Before(d.until) {
			// A duplicate within five minutes is accepted and not enqueued.
			return sendResult{id: d.id, md5Body: m.md5Body, md5Attrs: m.md5Attrs, seq: seqString(d.seq)}, nil
		}
		m.group, m.dedupID = in.group, dedupID
	} else if in.group != "" || in.dedupID != "" {
		if in.dedupID != "" {
			return sendResult{}, errInvalidParameter("The request include parameter MessageDeduplicationId that is not valid for this queue type")
		}
	}
	q.enqueueLocked(m, now)
	if q.fifo() {
		q.dedup[m.dedupID] = dedupEntry{until: now.Add(dedupInterval), id: m.id, seq: m.seq}
	}
	res := sendResult{id: m.id, md5Body: m.md5Body, md5Attrs: m.md5Attrs}
	if q.fifo() {
		res.seq = seqString(m.seq)
	}
	return res, nil
}

// seqString renders a FIFO sequence number as SQS does: a long decimal.
func seqString(seq uint64) string { return strconv.FormatUint(18_000_000_000_000_000_000+seq, 10) }

// validGroupToken checks a MessageGroupId or MessageDeduplicationId: 1 to
// 128 printable ASCII characters.
func validGroupToken(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func validateAttributes(attrs map[string]AttributeValue) error {
	if len(attrs) > 10 {
		return errInvalidParameter("Number of message attributes [%d] exceeds the allowed maximum [10].", len(attrs))
	}
	for name, v := range attrs {
		if !validAttributeName(name) {
			return errInvalidParameter("The message attribute name '%s' is invalid. Attribute name can contain A-Z, a-z, 0-9, underscore (_), hyphen (-), and period (.) characters.", name)
		}
		base, _, _ := strings.Cut(v.DataType, ".")
		switch base {
		case "String", "Number":
			if v.StringValue == nil {
				return errInvalidParameter("Message (user) attribute '%s' must contain a non-empty value of type '%s'.", name, base)
			}
		case "Binary":
			if v.BinaryValue == nil {
				return errInvalidParameter("Message (user) attribute '%s' must contain a non-empty value of type 'Binary'.", name)
			}
		default:
			return errInvalidParameter("The type of message (user) attribute '%s' is invalid. You must use only the following supported type prefixes: Binary, Number, String.", name)
		}
	}
	return nil
}

// maxAttributeNameLength is SQS's limit on a message attribute's name.
const maxAttributeNameLength = 256

// validAttributeName applies SQS's rules for a message attribute's name: 1
// to 256 of A-Z a-z 0-9 _ - and ., no period first, last or next to another,
// and no AWS. or Amazon. prefix in any case (SQS reserves them).
func validAttributeName(name string) bool {
	if name == "" || len(name) > maxAttributeNameLength || name[0] == '.' || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return false
	}
	lower := strings.ToLower(name)
	if strings.HasPrefix(lower, "aws.") || strings.HasPrefix(lower, "amazon.") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// enqueueLocked adds a new message (its visibleAt set) to the queue.
func (q *Queue) enqueueLocked(m *message, now time.Time) {
	q.counts.arrived++
	q.seq++
	m.seq = q.seq
	q.byID[m.id] = m
	if q.fifo() {
		q.order = append(q.order, m)
	} else {
		q.scheduleLocked(m, now)
	}
	q.notifyLocked()
}

// scheduleLocked places a standard queue's message by its visibleAt.
func (q *Queue) scheduleLocked(m *message, now time.Time) {
	if m.visibleAt.After(now) {
		heap.Push(&q.timed, m)
	} else {
		q.ready = append(q.ready, m)
	}
}

func (q *Queue) gcDedupLocked(now time.Time) {
	if now.Before(q.nextDedupGC) {
		return
	}
	for id, d := range q.dedup {
		if !now.Before(d.until) {
			delete(q.dedup, id)
		}
	}
	q.nextDedupGC = now.Add(time.Minute)
}

// removeLocked deletes m from the queue, counting it in left (one of the
// queue's ledger counters).
func (q *Queue) removeLocked(m *message, left *uint64) {
	if m.deleted {
		return
	}
	*left++
	m.deleted = true
	delete(q.byID, m.id)
	if m.heapIndex >= 0 {
		heap.Remove(&q.timed, m.heapIndex)
	}
}

// received is one message handed out by a receive: a copy, safe to read
// without the queue's lock.
type received struct {
	id, body, md5Body, md5Attrs, receipt string
	attrs                                map[string]AttributeValue
	// The system attributes' sources.
	senderID                  string
	sent, firstReceive        time.Time
	receiveCount              int
	fifo                      bool
	group, dedupID, dlqSource string
	seq                       uint64
	traceHeader               string
}

// receiveInput is one ReceiveMessage call's options.
type receiveInput struct {
	max        int
	visibility *time.Duration // nil: the queue's VisibilityTimeout
	wait       *time.Duration // nil: the queue's ReceiveMessageWaitTimeSeconds
}

// receive takes up to in.max visible messages, waiting up to the wait time
// (real time) for the first. A waiting receive is woken by a send, a
// visibility change, the queue's deletion, or the clock timer at the next
// visibility or delay expiry (armExpiryLocked); it never polls. A client
// gone (its request's context done) takes nothing: messages handed to a
// closed connection would sit in flight with nobody to see them.
func (q *Queue) receive(ctx context.Context, in receiveInput) []received {
	var timeout <-chan time.Time
	waiting := false
	defer func() {
		if waiting {
			q.mu.Lock()
			q.leaveWaitLocked()
			q.mu.Unlock()
		}
	}()
	for {
		q.mu.Lock()
		if ctx.Err() != nil || q.gone {
			q.mu.Unlock()
			return nil
		}
		wait := q.cfg.receiveWait
		if in.wait != nil {
			wait = *in.wait
		}
		out, moves := q.takeLocked(in)
		if len(out) > 0 || wait <= 0 {
			q.mu.Unlock()
			q.store.redrive(moves)
			return out
		}
		if q.wake == nil {
			q.wake = make(chan struct{})
		}
		wake := q.wake
		if !waiting {
			waiting = true
			q.waiters++
		}
		q.armExpiryLocked(q.store.clock.Now())
		q.mu.Unlock()
		q.store.redrive(moves)
		if timeout == nil {
			// The long poll is the client's own real-time wait: one timer
			// for the whole call.
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-wake:
		case <-timeout:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// move is a message leaving its queue for its dead-letter queue.
type move struct {
	m      *message
	target string
	source string
}

// takeLocked hands out up to in.max messages and collects those whose
// receive count reached the redrive policy's maxReceiveCount, to be moved
// once the lock is released.
func (q *Queue) takeLocked(in receiveInput) ([]received, []move) {
	now := q.store.clock.Now()
	vt := q.cfg.visibility
	if in.visibility != nil {
		vt = *in.visibility
	}
	var out []received
	var moves []move
	take := func(m *message) bool {
		if !now.Before(m.sent.Add(q.cfg.retention)) {
			q.removeLocked(m, &q.counts.expired) // past MessageRetentionPeriod
			return false
		}
		if r := q.cfg.redrive; r != nil && m.receiveCount >= r.MaxReceiveCount && q.store.exists(r.DeadLetterTargetArn) {
			q.removeLocked(m, &q.counts.deadLettered)
			moves = append(moves, move{m: m, target: r.DeadLetterTargetArn, source: q.arn})
			return false
		}
		m.receiveCount++
		if m.receiveCount == 1 {
			m.firstReceive = now
		}
		q.nonce++
		m.receipt = receiptHandle(q.key.name, m.id, q.nonce)
		m.visibleAt = now.Add(vt)
		if out == nil {
			out = make([]received, 0, in.max) // grown once, not doubled
		}
		out = append(out, q.snapshotLocked(m))
		return true
	}
	if q.fifo() {
		q.takeFIFOLocked(now, in.max, take)
	} else {
		for q.timed.Len() > 0 && !q.timed[0].visibleAt.After(now) {
			q.ready = append(q.ready, heap.Pop(&q.timed).(*message))
		}
		var taken []*message
		for len(out) < in.max && q.readyHead < len(q.ready) {
			m := q.ready[q.readyHead]
			q.ready[q.readyHead] = nil
			q.readyHead++
			if m.deleted || m.heapIndex >= 0 {
				continue
			}
			if take(m) {
				taken = append(taken, m)
			}
		}
		// Scheduled after the loop: with a visibility timeout of 0 they are
		// visible again at once, but not to this same receive.
		for _, m := range taken {
			q.scheduleLocked(m, now)
		}
		if q.readyHead > 64 && q.readyHead*2 > len(q.ready) {
			n := copy(q.ready, q.ready[q.readyHead:])
			clear(q.ready[n:])
			q.ready, q.readyHead = q.ready[:n], 0
		}
	}
	return out, moves
}

// takeFIFOLocked walks the messages in order: a group whose earlier message
// is in flight or delayed is blocked, so each group is handed out in order
// and one batch at a time.
func (q *Queue) takeFIFOLocked(now time.Time, max int, take func(*message) bool) {
	var blocked map[string]bool
	taken := 0
	for _, m := range q.order {
		if taken >= max {
			break
		}
		if m.deleted || blocked[m.group] {
			continue
		}
		if m.visibleAt.After(now) {
			if blocked == nil {
				blocked = map[string]bool{}
			}
			blocked[m.group] = true
			continue
		}
		if take(m) {
			taken++
		}
	}
	q.compactFIFOLocked()
}

func (q *Queue) compactFIFOLocked() {
	live := 0
	for _, m := range q.order {
		if !m.deleted {
			live++
		}
	}
	if live*2 > len(q.order) && len(q.order) < 1024 || live == len(q.order) {
		return
	}
	kept := q.order[:0]
	for _, m := range q.order {
		if !m.deleted {
			kept = append(kept, m)
		}
	}
	clear(q.order[len(kept):])
	q.order = kept
}

// snapshotLocked copies what a receive hands out.
func (q *Queue) snapshotLocked(m *message) received {
	return received{
		id: m.id, body: m.body, md5Body: m.md5Body, md5Attrs: m.md5Attrs, receipt: m.receipt, attrs: m.attrs,
		senderID: m.senderID, sent: m.sent, receiveCount: m.receiveCount, firstReceive: m.firstReceive,
		fifo: q.fifo(), group: m.group, dedupID: m.dedupID, seq: m.seq, dlqSource: m.dlqSource,
		traceHeader: m.traceHeader,
	}
}

// system returns every system attribute of a received message; the
// operation keeps those the caller asked for.
func (r *received) system() map[string]string {
	sys := map[string]string{
		"SenderId":                         r.senderID,
		"SentTimestamp":                    millis(r.sent),
		"ApproximateReceiveCount":          strconv.Itoa(r.receiveCount),
		"ApproximateFirstReceiveTimestamp": millis(r.firstReceive),
	}
	if r.fifo {
		sys["MessageGroupId"] = r.group
		sys["MessageDeduplicationId"] = r.dedupID
		sys["SequenceNumber"] = seqString(r.seq)
	}
	if r.dlqSource != "" {
		sys["DeadLetterQueueSourceArn"] = r.dlqSource
	}
	if r.traceHeader != "" {
		sys[awsTraceHeader] = r.traceHeader
	}
	return sys
}

func millis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// receiptHandle is opaque to clients; it names the message and the receive.
func receiptHandle(queue, id string, nonce uint64) string {
	var buf [160]byte // one allocation, the handle's own, for usual names
	b := strconv.AppendUint(append(append(append(append(buf[:0], queue...), 0), id...), 0), nonce, 10)
	// EncodeToString would encode into a buffer and then copy it into the
	// string: the handle is encoded into its own bytes instead.
	out := base64.RawURLEncoding.AppendEncode(make([]byte, 0, base64.RawURLEncoding.EncodedLen(len(b))), b)
	return unsafe.String(unsafe.SliceData(out), len(out))
}

// parseReceipt returns the queue name and message id a receipt handle
// names, decoded into buf (grown when too small): views of it, compared
// and looked up in maps without being copied into strings.
func parseReceipt(handle string, buf []byte) (queue, id []byte, ok bool) {
	// The decoder only reads the handle: a view of it, not a copy.
	b, err := base64.RawURLEncoding.AppendDecode(buf[:0], unsafe.Slice(unsafe.StringData(handle), len(handle)))
	if err != nil {
		return nil, nil, false
	}
	queue, rest, ok1 := bytes.Cut(b, []byte{0})
	id, nonce, ok2 := bytes.Cut(rest, []byte{0})
	if !ok1 || !ok2 || bytes.IndexByte(nonce, 0) >= 0 {
		return nil, nil, false
	}
	return queue, id, true
}

// deleteMessage deletes the message a receipt handle names. A handle of a
// message already gone succeeds, as on SQS.
func (q *Queue) deleteMessage(handle string) error {
	var errs [1]error
	q.deleteMessages([]deleteBatchEntry{{ReceiptHandle: handle}}, errs[:])
	return errs[0]
}

// deleteMessages deletes the messages entries' receipt handles name, under
// one hold of the lock, setting errs[i] when entries[i]'s handle is not
// this queue's. It does what deleteMessage does for each.
func (q *Queue) deleteMessages(entries []deleteBatchEntry, errs []error) {
	var buf [160]byte
	removed := false
	q.mu.Lock()
	for i, e := range entries {
		name, id, ok := parseReceipt(e.ReceiptHandle, buf[:])
		if !ok || string(name) != q.key.name {
			errs[i] = errReceiptHandleInvalid(e.ReceiptHandle)
			continue
		}
		if m := q.byID[string(id)]; m != nil {
			q.removeLocked(m, &q.counts.deleted)
			removed = true
		}
	}
	if removed && q.fifo() {
		// Their groups' next messages may be taken now.
		q.wakeReceiversLocked()
	}
	q.mu.Unlock()
}

// changeVisibility sets a received message's visibility timeout, counted
// from now.
func (q *Queue) changeVisibility(handle string, vt time.Duration) error {
	var buf [160]byte
	name, id, ok := parseReceipt(handle, buf[:])
	if !ok || string(name) != q.key.name {
		return errReceiptHandleInvalid(handle)
	}
	if vt < 0 || vt > maxVisibility {
		return errInvalidParameter("Value %d for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200.", int(vt/time.Second))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.store.clock.Now()
	m := q.byID[string(id)]
	if m == nil || m.receipt != handle || !m.inflight(now) {
		return errMessageNotInflight()
	}
	m.visibleAt = now.Add(vt)
	if !q.fifo() {
		if m.heapIndex >= 0 {
			heap.Remove(&q.timed, m.heapIndex)
		}
		q.scheduleLocked(m, now)
	}
	q.notifyLocked()
	return nil
}

// purge deletes every message.
func (q *Queue) purge() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.counts.purged += uint64(len(q.byID))
	q.clearLocked()
	q.modified = q.store.clock.Now()
}

func (q *Queue) clearLocked() {
	for _, m := range q.byID {
		m.deleted = true
	}
	q.byID = map[string]*message{}
	q.ready, q.readyHead, q.timed, q.order = nil, 0, nil, nil
}

// countsLocked returns how many messages are visible, in flight and delayed.
func (q *Queue) countsLocked(now time.Time) (visible, inflight, delayed int) {
	h := q.holdingLocked(now)
	return h.visible, h.inflight, h.delayed
}

// holding is what a queue holds at one instant. Past its retention period
// a message is gone for SQS but still held until a receive meets it.
type holding struct{ visible, inflight, delayed, pastRetention int }

func (q *Queue) holdingLocked(now time.Time) holding {
	var h holding
	for _, m := range q.byID {
		switch {
		case !now.Before(m.sent.Add(q.cfg.retention)):
			h.pastRetention++
		case !m.visibleAt.After(now):
			h.visible++
		case m.receiveCount > 0:
			h.inflight++
		default:
			h.delayed++
		}
	}
	return h
}

// acceptMoved adds a message redriven from another queue: same id, body,
// attributes and sent time; its receive count starts again.
func (q *Queue) acceptMoved(mv move) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.gone {
		return
	}
	now := q.store.clock.Now()
	m := &message{
		id: mv.m.id, body: mv.m.body, attrs: mv.m.attrs, md5Body: mv.m.md5Body, md5Attrs: mv.m.md5Attrs,
		sent: mv.m.sent, senderID: mv.m.senderID, group: mv.m.group, dedupID: mv.m.dedupID, traceHeader: mv.m.traceHeader,
		dlqSource: mv.source, visibleAt: now, heapIndex: -1,
	}
	if q.fifo() && m.group == "" {
		m.group = "redriven"
	}
	if _, dup := q.byID[m.id]; dup {
		m.id = q.store.ids.Next()
	}
	q.enqueueLocked(m, now)
}
