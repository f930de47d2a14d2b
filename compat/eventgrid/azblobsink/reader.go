package azblobsink

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
)

// BlobInfo describes one stored blob as List returns it.
type BlobInfo struct {
	Name         string
	Size         int64
	ContentType  string
	LastModified time.Time
	// Metadata keys are lower-case: Azure treats them case-insensitively and
	// services differ in the case they return.
	Metadata map[string]string
}

// Reader reads blobs back from the accounts it was built with, so that tests
// and the testkit can check what a Sink wrote. A missing container or blob is
// an error wrapping fs.ErrNotExist.
type Reader struct {
	accounts *accountClients
}

// NewReader returns a Reader over the given accounts, keyed as New keys them.
func NewReader(accounts ...Account) *Reader {
	return &Reader{accounts: newAccountClients(accounts)}
}

// List returns the blobs in container whose names start with prefix, in the
// service's (lexical) order, with their metadata.
func (r *Reader) List(ctx context.Context, account, containerName, prefix string) ([]BlobInfo, error) {
	client, err := r.accounts.client(account)
	if err != nil {
		return nil, fmt.Errorf("azblobsink: %w", err)
	}
	pager := client.NewListBlobsFlatPager(containerName, &azblob.ListBlobsFlatOptions{
		Prefix:  &prefix,
		Include: container.ListBlobsInclude{Metadata: true},
	})
	var out []BlobInfo
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			if isNotFound(err) {
				return nil, notExist(err, fmt.Sprintf("azblobsink: listing %s/%s", account, containerName))
			}
			return nil, fmt.Errorf("azblobsink: listing %s/%s: %w", account, containerName, err)
		}
		for _, item := range page.Segment.BlobItems {
			out = append(out, blobInfo(item))
		}
	}
	return out, nil
}

// Read returns the whole content of one blob.
func (r *Reader) Read(ctx context.Context, account, containerName, name string) ([]byte, error) {
	client, err := r.accounts.client(account)
	if err != nil {
		return nil, fmt.Errorf("azblobsink: %w", err)
	}
	resp, err := client.DownloadStream(ctx, containerName, name, nil)
	if err != nil {
		what := fmt.Sprintf("azblobsink: reading %s/%s/%s", account, containerName, name)
		if isNotFound(err) {
			return nil, notExist(err, what)
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("azblobsink: reading %s/%s/%s: %w", account, containerName, name, err)
	}
	return data, nil
}

func blobInfo(item *container.BlobItem) BlobInfo {
	info := BlobInfo{Name: deref(item.Name), Metadata: map[string]string{}}
	if p := item.Properties; p != nil {
		info.Size = derefInt(p.ContentLength)
		info.ContentType = deref(p.ContentType)
		if p.LastModified != nil {
			info.LastModified = *p.LastModified
		}
	}
	for k, v := range item.Metadata {
		info.Metadata[strings.ToLower(k)] = deref(v)
	}
	return info
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func derefInt(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}
