package eventgrid

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/compat/eventgrid/blobevents"
	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// defaultStoragePoll is how often, in real time, the accounts of system
// topics are listed when FaceConfig.StoragePollInterval is 0.
const defaultStoragePoll = time.Second

// storagePollBlobs is about how many blobs of each watched account one poll
// lists, carrying on where the last stopped: a poll's cost is bounded
// however large the account, which a larger account pays for in latency
// (10,000 blobs are gone round in 10 polls). SyncStorageEvents lists
// everything.
const storagePollBlobs = 1000

// storageEvents watches the storage accounts that system topics name and
// turns their blob changes into events (blobevents). GridBridge's own
// dead-letter blobs are written to those accounts like any other blob, so
// they raise BlobCreated too (EG-25). Watchers exist only
// while a system topic names their account; a poller scans them in real
// time, and SyncStorageEvents scans them on demand (tests call it instead
// of waiting).
type storageEvents struct {
	accounts map[string]azblobsink.Account // configured, by lower-case name

	mu       sync.Mutex
	watchers map[string]*blobevents.Watcher // by lower-case account name
	sequence map[string]uint64
	// scan serialises whole scans, so events of one account stay in order.
	scan sync.Mutex
	stop chan struct{}
	done chan struct{}
}

func newStorageEvents(conns []string) *storageEvents {
	se := &storageEvents{accounts: map[string]azblobsink.Account{}, watchers: map[string]*blobevents.Watcher{}, sequence: map[string]uint64{}}
	for _, conn := range conns {
		if acct, err := azblobsink.ParseConnectionString(conn); err == nil && acct.BlobEndpoint != "" {
			se.accounts[strings.ToLower(acct.Name)] = acct
		}
	}
	return se
}

func (se *storageEvents) configuredNames() string {
	var names []string
	for _, a := range se.accounts {
		names = append(names, a.Name)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none: start GridBridge with --azure-storage"
	}
	return strings.Join(names, ", ")
}

// CheckSystemTopicSource refuses a system topic whose storage account is
// not among the emulator's --azure-storage accounts.
func (h *armHooks) CheckSystemTopicSource(t *resource.Topic) *arm.Error {
	se := h.svc().storage
	name := resource.StorageAccountName(t.Source)
	if _, ok := se.accounts[strings.ToLower(name)]; !ok {
		return arm.BadRequest("The storage account '%s' of source '%s' is not one GridBridge can watch (accounts given with --azure-storage and a blob endpoint: %s).", name, t.Source, se.configuredNames())
	}
	return nil
}

// SystemTopicsChanged starts watching the accounts system topics now name
// (recording what they hold, so earlier blobs raise nothing) and stops
// watching the others.
func (h *armHooks) SystemTopicsChanged() {
	s := h.svc()
	want := map[string]bool{}
	for _, t := range s.store.TopicsOfType(resource.TypeSystemTopic) {
		want[strings.ToLower(resource.StorageAccountName(t.Source))] = true
	}
	se := s.storage
	se.mu.Lock()
	var added []*blobevents.Watcher
	for name := range want {
		if se.watchers[name] != nil {
			continue
		}
		w, err := blobevents.NewWatcher(se.accounts[name])
		if err != nil {
			continue // CheckSystemTopicSource let only usable accounts in
		}
		se.watchers[name] = w
		added = append(added, w)
	}
	for name := range se.watchers {
		if !want[name] {
			delete(se.watchers, name)
		}
	}
	start := len(se.watchers) > 0 && se.stop == nil
	if start {
		se.stop, se.done = make(chan struct{}), make(chan struct{})
	}
	stop, done := se.stop, se.done
	se.mu.Unlock()
	stopped, cancelStopped := untilStopped(stop)
	defer cancelStopped()
	ctx, cancel := context.WithTimeout(stopped, 30*time.Second)
	defer cancel()
	for _, w := range added {
		if _, err := w.Scan(ctx); err != nil {
			s.journal.Append(engine.Entry{Time: s.clock.Now(), Kind: engine.KindDrop, Outcome: "StorageListFailed",
				Labels: map[string]string{"cloud": "eventgrid", "account": w.Account}, Message: err.Error()})
		}
	}
	if start && s.cfg.StoragePollInterval >= 0 {
		go s.pollStorage(stop, done)
	} else if start {
		close(done)
	}
}

// pollStorage scans in real time until Close or Reset.
func (s *basicTopics) pollStorage(stop, done chan struct{}) {
	defer close(done)
	every := s.cfg.StoragePollInterval
	if every == 0 {
		every = defaultStoragePoll
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	stopped, cancelStopped := untilStopped(stop)
	defer cancelStopped()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(stopped, 30*time.Second)
			_ = s.scanStorage(ctx, func(w *blobevents.Watcher) ([]blobevents.Change, error) {
				return w.Poll(ctx, storagePollBlobs)
			})
			cancel()
		}
	}
}

// untilStopped is a context that ends when stop is closed (by Close or
// Reset), so that a scan of an account that never answers does not hold
// them up.
func untilStopped(stop <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// stopStorage stops the poller and forgets the watchers.
func (s *basicTopics) stopStorage() {
	se := s.storage
	se.mu.Lock()
	stop, done := se.stop, se.done
	se.stop, se.done = nil, nil
	se.watchers = map[string]*blobevents.Watcher{}
	se.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

// Close stops watching storage accounts.
func (s *basicTopics) Close() { s.stopStorage() }

// SyncStorageEvents lists every watched storage account now and publishes
// the blob events of what changed since the last scan to the system topics
// of that account. When it returns, those events are queued on their
// subscriptions' routes: a test that wrote a blob calls it, then waits for
// the delivery, without sleeping.
func (s *basicTopics) SyncStorageEvents(ctx context.Context) error {
	return s.scanStorage(ctx, func(w *blobevents.Watcher) ([]blobevents.Change, error) { return w.Scan(ctx) })
}

// scanStorage lists every watched account with list and publishes what
// changed, the changes listed before a failure included (the watcher has
// recorded them).
func (s *basicTopics) scanStorage(ctx context.Context, list func(*blobevents.Watcher) ([]blobevents.Change, error)) error {
	se := s.storage
	se.scan.Lock()
	defer se.scan.Unlock()
	se.mu.Lock()
	watchers := make([]*blobevents.Watcher, 0, len(se.watchers))
	for _, w := range se.watchers {
		watchers = append(watchers, w)
	}
	se.mu.Unlock()
	sort.Slice(watchers, func(i, j int) bool { return watchers[i].Account < watchers[j].Account })
	var errs []string
	for _, w := range watchers {
		changes, err := list(w)
		if err != nil {
			errs = append(errs, err.Error())
		}
		if len(changes) > 0 {
			s.publishBlobChanges(w.Account, changes)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// publishBlobChanges publishes an account's changes to each system topic
// whose source is that account.
func (s *basicTopics) publishBlobChanges(account string, changes []blobevents.Change) {
	for _, t := range s.store.TopicsOfType(resource.TypeSystemTopic) {
		if !strings.EqualFold(resource.StorageAccountName(t.Source), account) {
			continue
		}
		now := s.clock.Now()
		events := make([]*egevent.Event, 0, len(changes))
		for _, c := range changes {
			s.storage.mu.Lock()
			s.storage.sequence[strings.ToLower(account)]++
			seq := s.storage.sequence[strings.ToLower(account)]
			s.storage.mu.Unlock()
			ev := blobevents.Event(c, blobevents.Identity{AccountID: t.Source, Sequence: seq, NewID: uuid.NewString, Now: now})
			ev.TopicName = t.Name
			events = append(events, ev)
		}
		subs := s.provisioned(t)
		labels := map[string]string{"cloud": "eventgrid", "topic": t.Name, "systemTopic": t.Name}
		s.dispatch(events, func(*egevent.Event) []scoped { return subs },
			func(*egevent.Event) map[string]string { return labels })
	}
}

// ServeStorageSync answers POST /_emulator/eventgrid/storage/sync (the
// emulator mounts it among the inspection endpoints): one scan now
// (SyncStorageEvents); 204 when done, 502 with the reason when an account
// could not be listed.
func (s *basicTopics) ServeStorageSync(w http.ResponseWriter, r *http.Request) {
	if err := s.SyncStorageEvents(r.Context()); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
