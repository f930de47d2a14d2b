package eventgrid

import (
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/compat/eventgrid/egevent"
	"github.com/gridbridge/gridbridge/compat/eventgrid/resource"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// A dead-letter destination that cannot be used (ARM refuses one at create;
// an older one may remain) gives up with a reason naming it, never as "no
// dead-letter destination".
func TestUnusableDeadLetterDestinationNamesItself(t *testing.T) {
	t.Parallel()
	p := blobDeadLetters("audit", egevent.EventGridSchema, &resource.DeadLetterDestination{
		ResourceID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/acct", BlobContainerName: "../../etc"},
		engine.NewMemorySink())
	if p == nil {
		t.Fatal("no dead-letter policy: the give-up would be dropped as having no destination")
	}
	_, err := p.Build(&engine.Batch{Items: []*engine.Item{{ID: "e-1"}}}, "MaxDeliveryAttemptsExceeded", time.Now())
	if err == nil || !strings.Contains(err.Error(), `"../../etc"`) {
		t.Fatalf("Build = %v, want an error naming the container", err)
	}
}
