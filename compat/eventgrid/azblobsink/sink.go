// Package azblobsink stores GridBridge dead letters as block blobs in Azure
// Storage or Azurite, the way Event Grid writes them to a dead-letter
// container (EG-23), and reads them back for tests.
package azblobsink

import (
	"context"
	"fmt"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// defaultContentType is what Event Grid dead-letter blobs carry: a JSON array.
const defaultContentType = "application/json"

// Sink writes dead letters to the blob containers of the storage accounts it
// was built with. It never creates a container: Azure requires the
// dead-letter container to exist, and a missing one drops the event (EG-22).
// A Sink is safe for concurrent use.
type Sink struct {
	accounts *accountClients
}

var _ engine.Sink = (*Sink)(nil)

// New returns a Sink over the given accounts, keyed by Account.Name; a later
// account with the same name replaces an earlier one. An account whose client
// cannot be built (no name, no blob endpoint, a key that is not base64) is
// kept aside, and writes to it fail with the reason.
func New(accounts ...Account) *Sink {
	return &Sink{accounts: newAccountClients(accounts)}
}

// Accounts returns the names of the usable accounts, sorted.
func (s *Sink) Accounts() []string {
	return s.accounts.names()
}

// Reader returns a Reader over the same accounts and clients as the Sink.
func (s *Sink) Reader() *Reader {
	return &Reader{accounts: s.accounts}
}

// Write uploads dl.Body as the block blob named by dl.Destination,
// "<account>/<container>/<blob path>", with dl.ContentType (default
// application/json) and dl.Attributes as blob metadata.
//
// It returns an error wrapping engine.ErrDestinationNotFound when the
// destination cannot exist or does not: a malformed destination, an account
// that is not configured, an invalid container name or a missing container.
// Any other error (service down, timeout, auth failure) is transient.
func (s *Sink) Write(ctx context.Context, dl engine.DeadLetter) error {
	account, container, blobName, err := splitDestination(dl.Destination)
	if err != nil {
		return err
	}
	client, err := s.accounts.client(account)
	if err != nil {
		return fmt.Errorf("azblobsink: %w", err)
	}
	if err := checkContainerName(container); err != nil {
		return fmt.Errorf("azblobsink: storage account %q: %w", account, err)
	}
	metadata, err := blobMetadata(dl.Attributes)
	if err != nil {
		return fmt.Errorf("azblobsink: %s: %w", dl.Destination, err)
	}
	contentType := dl.ContentType
	if contentType == "" {
		contentType = defaultContentType
	}
	_, err = client.UploadBuffer(ctx, container, blobName, dl.Body, &azblob.UploadBufferOptions{
		HTTPHeaders: &blob.HTTPHeaders{BlobContentType: &contentType},
		Metadata:    metadata,
	})
	if err != nil {
		return fmt.Errorf("azblobsink: writing blob %q: %w", blobName, classify(err, account, container))
	}
	return nil
}

// splitDestination parses "<account>/<container>/<blob path>". A malformed
// destination can never be written, so it is a missing destination.
func splitDestination(dest string) (account, container, blobName string, err error) {
	parts := strings.SplitN(dest, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", "", "", fmt.Errorf("azblobsink: destination %q is not <account>/<container>/<blob path>: %w", dest, engine.ErrDestinationNotFound)
	}
	return parts[0], parts[1], parts[2], nil
}

// blobMetadata turns attributes into blob metadata. Azure allows only
// C#-identifier names and sends them as HTTP headers, so a bad name is
// reported here by name rather than as the service's bare 400.
func blobMetadata(attrs []engine.Attribute) (map[string]*string, error) {
	if len(attrs) == 0 {
		return nil, nil
	}
	md := make(map[string]*string, len(attrs))
	seen := make(map[string]string, len(attrs))
	for _, a := range attrs {
		if !isIdentifier(a.Name) {
			return nil, fmt.Errorf("attribute %q cannot be blob metadata: a name must be a letter or '_' followed by letters, digits or '_'", a.Name)
		}
		// Metadata names are case-insensitive in Azure.
		if prev, dup := seen[strings.ToLower(a.Name)]; dup {
			return nil, fmt.Errorf("attributes %q and %q are the same blob metadata name", prev, a.Name)
		}
		seen[strings.ToLower(a.Name)] = a.Name
		md[a.Name] = &a.Value
	}
	return md, nil
}

func isIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
