package blobevents

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
)

// Blob is what a listing says of one blob.
type Blob struct {
	Container     string
	Name          string
	ETag          string // without quotes, as events carry it
	ContentType   string
	ContentLength int64
	BlobType      string // BlockBlob, AppendBlob, PageBlob
}

// Change is one blob created (or overwritten) or deleted between two scans.
type Change struct {
	Deleted bool
	Blob
	// URL is the blob's URL in the account's blob service.
	URL string
}

// Watcher follows one storage account. Scans are serialised, so two
// callers never report the same change twice.
//
// What the last listing said is kept per container, sorted by name, so a
// listing can be compared page by page: a page of blobs from a marker
// covers a range of names, and the blobs known in that range that the page
// lacks are gone. That lets Poll list a bounded number of blobs each time
// and carry on where it stopped, so a large account costs the same per poll
// as a small one (it just takes more polls to go round), while Scan lists
// everything at once for a caller that must see every change now.
type Watcher struct {
	Account  string
	endpoint string // blob service URL, no trailing slash
	client   *azblob.Client

	mu     sync.Mutex
	known  map[string][]Blob // by container, sorted by name
	primed bool
	sweep  *sweep // Poll's round of the account under way; nil between rounds
}

// sweep is one round of listing the account: the containers it found when
// it began, and where in them it stands.
type sweep struct {
	containers []string // sorted
	next       int      // the container being listed
	after      string   // the last blob name listed in it this round ("": none yet)
	marker     *string  // where its listing continues; nil: from the start
}

// scanPageSize is how many blobs one listing request asks for at most:
// the service's own maximum.
const scanPageSize = 5000

// requestCost is what a listing request counts against a poll's budget
// however few blobs it returns.
const requestCost = 100

// NewWatcher returns a watcher of acct's blob service. Its first Scan or
// Poll records what exists and reports nothing: blobs written before a
// system topic existed raise no events.
func NewWatcher(acct azblobsink.Account) (*Watcher, error) {
	if acct.BlobEndpoint == "" {
		return nil, fmt.Errorf("storage account %q: its connection string names no BlobEndpoint", acct.Name)
	}
	cred, err := azblob.NewSharedKeyCredential(acct.Name, acct.Key)
	if err != nil {
		return nil, fmt.Errorf("storage account %q: %w", acct.Name, err)
	}
	endpoint := strings.TrimRight(acct.BlobEndpoint, "/")
	client, err := azblob.NewClientWithSharedKeyCredential(endpoint+"/", cred, &azblob.ClientOptions{ClientOptions: azblobsink.ClientOptions()})
	if err != nil {
		return nil, fmt.Errorf("storage account %q: %w", acct.Name, err)
	}
	return &Watcher{Account: acct.Name, endpoint: endpoint, client: client, known: map[string][]Blob{}}, nil
}

// Scan lists the whole account now and returns what changed since it was
// last listed, sorted by container and blob name (deletions and creations
// interleave in that order). On an error it returns the changes of the part
// it listed before the failure, which are recorded: the caller must act on
// them too.
func (w *Watcher) Scan(ctx context.Context) ([]Change, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sw, err := w.startSweep(ctx)
	if err != nil {
		return nil, err
	}
	changes, _, err := w.listLocked(ctx, sw, -1)
	if err == nil {
		// Everything is listed: a round Poll had under way starts afresh.
		w.sweep, w.primed = nil, true
	}
	return changes, err
}

// Poll lists about budget blobs of the account, carrying on from where the
// last Poll stopped, and returns what changed in what it listed (as Scan
// does). A round that reaches the account's end begins again with its
// containers at the next Poll. The first call, before anything is known,
// lists the whole account to record it.
func (w *Watcher) Poll(ctx context.Context, budget int) ([]Change, error) {
	if budget < 1 {
		budget = 1
	}
	w.mu.Lock()
	primed := w.primed
	w.mu.Unlock()
	if !primed {
		return w.Scan(ctx)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sweep == nil {
		sw, err := w.startSweep(ctx)
		if err != nil {
			return nil, err
		}
		w.sweep = sw
	}
	changes, done, err := w.listLocked(ctx, w.sweep, budget)
	if done {
		w.sweep = nil
	}
	return changes, err
}

// startSweep lists the account's containers and forgets those that are
// gone: Azure raises BlobDeleted for DeleteBlob only, and the blobs that go
// with a deleted container (Delete Container) raise nothing.
func (w *Watcher) startSweep(ctx context.Context) (*sweep, error) {
	sw := &sweep{}
	pager := w.client.NewListContainersPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing the containers of storage account %q: %w", w.Account, err)
		}
		for _, c := range page.ContainerItems {
			if c.Name != nil {
				sw.containers = append(sw.containers, *c.Name)
			}
		}
	}
	sort.Strings(sw.containers)
	for c := range w.known {
		if _, found := slices.BinarySearch(sw.containers, c); !found {
			delete(w.known, c)
		}
	}
	return sw, nil
}

// listLocked lists pages of sw's containers until about budget blobs are
// listed (budget < 0: to the end), records them and returns the changes;
// done says the round reached the account's end.
func (w *Watcher) listLocked(ctx context.Context, sw *sweep, budget int) (changes []Change, done bool, err error) {
	spent := 0
	for sw.next < len(sw.containers) {
		if budget >= 0 && spent >= budget {
			return changes, false, nil
		}
		name := sw.containers[sw.next]
		size := int32(scanPageSize)
		if budget >= 0 {
			size = int32(min(scanPageSize, budget-spent))
		}
		pager := w.client.NewListBlobsFlatPager(name, &container.ListBlobsFlatOptions{Marker: sw.marker, MaxResults: &size})
		page, err := pager.NextPage(ctx)
		if err != nil {
			if !strings.Contains(err.Error(), "ContainerNotFound") {
				return changes, false, fmt.Errorf("listing container %q of storage account %q: %w", name, w.Account, err)
			}
			// Deleted while the round went on: its blobs raise nothing.
			delete(w.known, name)
			sw.next, sw.after, sw.marker = sw.next+1, "", nil
			continue
		}
		blobs := pageBlobs(name, page.Segment.BlobItems)
		// A request costs the service about as much as a hundred blobs
		// (Azurite, 10,000 blobs in the container: 165 ms for a page of
		// 100, 320 ms for 1,000), so an account of many small containers
		// is not listed one request after another in a single poll either.
		spent += max(requestCost, len(blobs))
		last := page.NextMarker == nil || *page.NextMarker == ""
		if len(blobs) > 0 || last {
			changes = append(changes, w.mergeLocked(name, sw.after, blobs, last)...)
		}
		if len(blobs) > 0 {
			sw.after = blobs[len(blobs)-1].Name
		}
		if last {
			sw.next, sw.after, sw.marker = sw.next+1, "", nil
		} else {
			sw.marker = page.NextMarker
		}
	}
	return changes, true, nil
}

// mergeLocked records a page of container's blobs, the names after after
// up to the page's last (to the end when last), and returns what changed
// in that range; before the watcher is primed it records only.
func (w *Watcher) mergeLocked(name, after string, page []Blob, last bool) []Change {
	old := w.known[name]
	lo := sort.Search(len(old), func(i int) bool { return old[i].Name > after })
	hi := len(old)
	if !last {
		end := page[len(page)-1].Name
		hi = sort.Search(len(old), func(i int) bool { return old[i].Name > end })
	}
	var changes []Change
	if w.primed {
		prev := old[lo:hi]
		i, j := 0, 0
		for i < len(prev) || j < len(page) {
			switch {
			case j == len(page) || (i < len(prev) && prev[i].Name < page[j].Name):
				changes = append(changes, Change{Deleted: true, Blob: prev[i], URL: w.blobURL(prev[i])})
				i++
			case i == len(prev) || page[j].Name < prev[i].Name:
				changes = append(changes, Change{Blob: page[j], URL: w.blobURL(page[j])})
				j++
			default:
				if prev[i].ETag != page[j].ETag {
					changes = append(changes, Change{Blob: page[j], URL: w.blobURL(page[j])})
				}
				i, j = i+1, j+1
			}
		}
	}
	merged := make([]Blob, 0, lo+len(page)+len(old)-hi)
	merged = append(merged, old[:lo]...)
	merged = append(merged, page...)
	merged = append(merged, old[hi:]...)
	w.known[name] = merged
	return changes
}

func (w *Watcher) blobURL(b Blob) string {
	return w.endpoint + "/" + url.PathEscape(b.Container) + "/" + escapeBlobName(b.Name)
}

// escapeBlobName escapes each segment of a blob name, keeping its slashes.
func escapeBlobName(name string) string {
	segs := strings.Split(name, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// pageBlobs reads a listing page's blobs, sorted by name.
func pageBlobs(name string, items []*container.BlobItem) []Blob {
	out := make([]Blob, 0, len(items))
	for _, item := range items {
		if item.Name == nil || item.Properties == nil {
			continue
		}
		b := Blob{Container: name, Name: *item.Name}
		p := item.Properties
		if p.ETag != nil {
			b.ETag = strings.Trim(string(*p.ETag), `"`)
		}
		if p.ContentType != nil {
			b.ContentType = *p.ContentType
		}
		if p.ContentLength != nil {
			b.ContentLength = *p.ContentLength
		}
		if p.BlobType != nil {
			b.BlobType = string(*p.BlobType)
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
