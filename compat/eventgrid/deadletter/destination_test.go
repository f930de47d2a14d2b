package deadletter_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/deadletter"
)

func TestEG19_ParseDestination(t *testing.T) {
	t.Parallel()
	const account = "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/mydlstore"
	tests := []struct {
		name, id, container string
		want                deadletter.Destination
		err                 string
	}{
		{"ARM form", account, "deadletters", deadletter.Destination{Account: "mydlstore", Container: "deadletters"}, ""},
		{"lower-case segments", strings.ToLower(account), "deadletters", deadletter.Destination{Account: "mydlstore", Container: "deadletters"}, ""},
		{"trailing slash", account + "/", "deadletters", deadletter.Destination{Account: "mydlstore", Container: "deadletters"}, ""},
		{"container in the id (CLI form)", account + "/blobServices/default/containers/dl-1", "", deadletter.Destination{Account: "mydlstore", Container: "dl-1"}, ""},
		{"container in both, equal", account + "/blobServices/default/containers/dl-1", "dl-1", deadletter.Destination{Account: "mydlstore", Container: "dl-1"}, ""},
		{"container in both, different", account + "/blobServices/default/containers/dl-1", "dl-2", deadletter.Destination{}, "differs"},
		{"not storage", "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.EventGrid/topics/t", "deadletters", deadletter.Destination{}, "not a storage account"},
		{"too short", "/subscriptions/0000/resourceGroups/rg", "deadletters", deadletter.Destination{}, "not a storage account"},
		{"empty segment", "/subscriptions//resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/x", "deadletters", deadletter.Destination{}, "not a storage account"},
		{"upper-case account", "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/MyStore", "deadletters", deadletter.Destination{}, "storage account name"},
		{"no container", account, "", deadletter.Destination{}, "blobContainerName"},
		{"bad container", account, "Dead_Letters", deadletter.Destination{}, "blobContainerName"},
		{"double hyphen", account, "dead--letters", deadletter.Destination{}, "blobContainerName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := deadletter.ParseDestination(tt.id, tt.container)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestEG23_BlobPath(t *testing.T) {
	t.Parallel()
	tokyo := time.FixedZone("JST", 9*3600)
	tests := []struct {
		name string
		sub  string
		at   time.Time
		want string
	}{
		{"azure's example", "my-blob-subscription", time.Date(2019, 8, 8, 5, 30, 0, 0, time.UTC),
			"MY-BLOB-SUBSCRIPTION/2019/8/8/5/111111111-1111-1111-1111-111111111111.json"},
		{"UTC date and hour", "Sub1", time.Date(2019, 8, 8, 14, 0, 0, 0, tokyo),
			"SUB1/2019/8/8/5/111111111-1111-1111-1111-111111111111.json"},
		{"midnight", "s", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
			"S/2026/1/2/0/111111111-1111-1111-1111-111111111111.json"},
		{"two-digit fields", "s", time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC),
			"S/2026/12/31/23/111111111-1111-1111-1111-111111111111.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := deadletter.BlobPath(tt.sub, tt.at, "111111111-1111-1111-1111-111111111111"); got != tt.want {
				t.Fatalf("BlobPath = %q, want %q", got, tt.want)
			}
		})
	}
}
