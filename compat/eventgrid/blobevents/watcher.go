package blobevents

import (
	"context"
	"fmt"
	"net/url"
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

func (b Blob) key() string { return b.Container + "/" + b.Name }

// Change is one blob created (or overwritten) or deleted between two scans.
type Change struct {
	Deleted bool
	Blob
	// URL is the blob's URL in the account's blob service.
	URL string
}

// Watcher follows one storage account. Scans are serialised, so two
// callers never report the same change twice.
type Watcher struct {
	Account  string
	endpoint string // blob service URL, no trailing slash
	client   *azblob.Client

	mu     sync.Mutex
	known  map[string]Blob // by container/name
	primed bool
}

// NewWatcher returns a watcher of acct's blob service. Its first Scan
// records what exists and reports nothing: blobs written before a system
// topic existed raise no events.
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
	return &Watcher{Account: acct.Name, endpoint: endpoint, client: client, known: map[string]Blob{}}, nil
}

// Scan lists the account and returns what changed since the last scan,
// sorted by container and blob name (deletions and creations of one scan
// interleave in that order). A failed listing changes nothing.
func (w *Watcher) Scan(ctx context.Context) ([]Change, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now, containers, err := w.list(ctx)
	if err != nil {
		return nil, err
	}
	if !w.primed {
		w.known, w.primed = now, true
		return nil, nil
	}
	var changes []Change
	for k, b := range now {
		if old, ok := w.known[k]; !ok || old.ETag != b.ETag {
			changes = append(changes, Change{Blob: b, URL: w.blobURL(b)})
		}
	}
	for k, b := range w.known {
		// Azure raises BlobDeleted for DeleteBlob only: the blobs that go
		// with a deleted container (Delete Container) raise nothing.
		if _, ok := now[k]; !ok && containers[b.Container] {
			changes = append(changes, Change{Deleted: true, Blob: b, URL: w.blobURL(b)})
		}
	}
	sort.Slice(changes, func(i, j int) bool {
		if changes[i].key() != changes[j].key() {
			return changes[i].key() < changes[j].key()
		}
		return changes[i].Deleted && !changes[j].Deleted
	})
	w.known = now
	return changes, nil
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

// list returns the account's blobs by key, and the names of the containers
// that still exist.
func (w *Watcher) list(ctx context.Context) (map[string]Blob, map[string]bool, error) {
	out, names := map[string]Blob{}, map[string]bool{}
	containers := w.client.NewListContainersPager(nil)
	for containers.More() {
		page, err := containers.NextPage(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("listing the containers of storage account %q: %w", w.Account, err)
		}
		for _, c := range page.ContainerItems {
			if c.Name == nil {
				continue
			}
			found, err := w.listContainer(ctx, *c.Name, out)
			if err != nil {
				return nil, nil, err
			}
			names[*c.Name] = found
		}
	}
	return out, names, nil
}

// listContainer adds the container's blobs to out; false means the
// container was deleted while it was being listed.
func (w *Watcher) listContainer(ctx context.Context, name string, out map[string]Blob) (bool, error) {
	blobs := w.client.NewListBlobsFlatPager(name, &container.ListBlobsFlatOptions{})
	for blobs.More() {
		page, err := blobs.NextPage(ctx)
		if err != nil {
			if strings.Contains(err.Error(), "ContainerNotFound") {
				return false, nil // deleted while listing
			}
			return false, fmt.Errorf("listing container %q of storage account %q: %w", name, w.Account, err)
		}
		for _, item := range page.Segment.BlobItems {
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
			out[b.key()] = b
		}
	}
	return true, nil
}
