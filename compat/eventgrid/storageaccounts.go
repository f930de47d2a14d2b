package eventgrid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azqueue"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
)

// storageQueues are the queue services of the configured storage accounts,
// by account name. Built once, then only read: safe for concurrent use.
type storageQueues struct {
	services map[string]*azqueue.ServiceClient
	// broken says why an account given could not be used (no queue
	// endpoint, a bad key), so a delivery to it says so.
	broken map[string]string
}

// newStorageQueues reads the --azure-storage connection strings. The
// emulator has already refused unparsable ones at start, so one that fails
// here is only remembered as broken.
func newStorageQueues(conns []string) *storageQueues {
	q := &storageQueues{services: map[string]*azqueue.ServiceClient{}, broken: map[string]string{}}
	for i, conn := range conns {
		acct, err := azblobsink.ParseConnectionString(conn)
		if err != nil {
			q.broken[fmt.Sprintf("#%d", i+1)] = err.Error()
			continue
		}
		if acct.QueueEndpoint == "" {
			q.broken[acct.Name] = "its connection string names no QueueEndpoint"
			continue
		}
		svc, err := newQueueService(acct)
		if err != nil {
			q.broken[acct.Name] = err.Error()
			continue
		}
		q.services[acct.Name] = svc
	}
	return q
}

func newQueueService(acct azblobsink.Account) (*azqueue.ServiceClient, error) {
	cred, err := azqueue.NewSharedKeyCredential(acct.Name, acct.Key)
	if err != nil {
		return nil, err
	}
	return azqueue.NewServiceClientWithSharedKeyCredential(strings.TrimRight(acct.QueueEndpoint, "/")+"/", cred,
		&azqueue.ClientOptions{ClientOptions: azblobsink.ClientOptions()})
}

// configured reports whether any queue service can be reached.
func (q *storageQueues) configured() bool { return len(q.services) > 0 }

// service picks the account a destination's resourceId names, falling back
// to Azurite's development account or the only account configured (tests
// use production-looking resource ids against one Azurite), as dead-letter
// blobs do. It returns the account name used, or why there is none.
func (q *storageQueues) service(account string) (*azqueue.ServiceClient, string, error) {
	if svc, ok := q.services[account]; ok {
		return svc, account, nil
	}
	if why, ok := q.broken[account]; ok {
		return nil, "", fmt.Errorf("storage account %q is configured but unusable for queues: %s", account, why)
	}
	if svc, ok := q.services[azblobsink.DevAccountName]; ok {
		return svc, azblobsink.DevAccountName, nil
	}
	if len(q.services) == 1 {
		for name, svc := range q.services {
			return svc, name, nil
		}
	}
	names := make([]string, 0, len(q.services))
	for n := range q.services {
		names = append(names, n)
	}
	slices.Sort(names)
	return nil, "", fmt.Errorf("storage account %q is not configured (configured: %s)", account, strings.Join(names, ", "))
}
