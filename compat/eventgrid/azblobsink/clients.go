package azblobsink

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"

	"github.com/gridbridge/gridbridge/emulator/engine"
)

// tryTimeout bounds one HTTP request to a storage service in real time.
// Dead letters, queue messages and listings are small, so a try that takes
// longer means the service is stuck; failing it lets the engine retry on its
// own schedule and clock.
const tryTimeout = 10 * time.Second

// accountClients holds one blob client per configured account name. It is
// built once and only read afterwards, so it is safe for concurrent use.
type accountClients struct {
	clients map[string]*azblob.Client
	// broken records accounts whose client could not be built, so that a
	// write to them says why instead of "not configured".
	broken map[string]error
}

func newAccountClients(accounts []Account) *accountClients {
	ac := &accountClients{clients: map[string]*azblob.Client{}, broken: map[string]error{}}
	for _, a := range accounts {
		delete(ac.clients, a.Name)
		delete(ac.broken, a.Name)
		c, err := newBlobClient(a)
		if err != nil {
			ac.broken[a.Name] = err
			continue
		}
		ac.clients[a.Name] = c
	}
	return ac
}

func newBlobClient(a Account) (*azblob.Client, error) {
	if a.Name == "" {
		return nil, errors.New("account has no name")
	}
	if a.BlobEndpoint == "" {
		return nil, fmt.Errorf("account %q has no blob endpoint", a.Name)
	}
	cred, err := azblob.NewSharedKeyCredential(a.Name, a.Key)
	if err != nil {
		return nil, fmt.Errorf("account %q: %w", a.Name, err)
	}
	opts := &azblob.ClientOptions{ClientOptions: ClientOptions()}
	return azblob.NewClientWithSharedKeyCredential(strings.TrimRight(a.BlobEndpoint, "/")+"/", cred, opts)
}

// ClientOptions are the SDK options of every storage client the Event Grid
// face makes (dead-letter blobs, storage queue destinations, blob event
// scans). No retries inside the SDK: the engine retries on the emulator
// clock (EG-22), and SDK retries would hide failures from it and stall on
// the wall clock; each try is bounded by tryTimeout. No telemetry header:
// requests stay the same across GridBridge builds.
func ClientOptions() azcore.ClientOptions {
	return azcore.ClientOptions{
		Retry:     policy.RetryOptions{MaxRetries: -1, TryTimeout: tryTimeout},
		Telemetry: policy.TelemetryOptions{Disabled: true},
	}
}

// names lists the usable accounts, sorted, for error messages and Accounts.
func (ac *accountClients) names() []string {
	names := make([]string, 0, len(ac.clients))
	for n := range ac.clients {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// client selects an account strictly by name: a near miss is still a miss,
// because writing a dead letter to another account than the one configured
// would hide the mistake.
func (ac *accountClients) client(account string) (*azblob.Client, error) {
	if c, ok := ac.clients[account]; ok {
		return c, nil
	}
	if err, ok := ac.broken[account]; ok {
		return nil, fmt.Errorf("storage account %q is misconfigured: %v: %w", account, err, engine.ErrDestinationNotFound)
	}
	configured := "none"
	if names := ac.names(); len(names) > 0 {
		configured = strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("storage account %q is not configured (configured: %s): %w", account, configured, engine.ErrDestinationNotFound)
}

// checkContainerName applies Azure's container naming rules locally: a name
// that breaks them can never exist, so it is a missing destination rather
// than a failure worth retrying (and Azurite's 400 would not say which rule).
func checkContainerName(name string) error {
	switch name {
	case "$root", "$logs", "$web":
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("container name %q is invalid: %s: %w", name, why, engine.ErrDestinationNotFound)
	}
	if len(name) < 3 || len(name) > 63 {
		return bad("it must be 3 to 63 characters long")
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case r == '-':
			if i == 0 || i == len(name)-1 || name[i-1] == '-' {
				return bad("a hyphen may not start or end it, nor follow another hyphen")
			}
		default:
			return bad("only lower-case letters, digits and hyphens are allowed")
		}
	}
	return nil
}

// classify turns a storage error into the engine's terms: a missing
// container is permanent (EG-22), everything else is worth retrying.
func classify(err error, account, container string) error {
	if bloberror.HasCode(err, bloberror.ContainerNotFound) {
		return fmt.Errorf("container %q does not exist in storage account %q: %w", container, account, engine.ErrDestinationNotFound)
	}
	return fmt.Errorf("storage account %q, container %q: %w", account, container, err)
}

// isNotFound reports a 404 of any kind (container or blob).
func isNotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}

// notExist wraps err so that callers can test it with errors.Is(err, fs.ErrNotExist).
func notExist(err error, what string) error {
	return fmt.Errorf("%s: %w (%w)", what, fs.ErrNotExist, err)
}
