package eventgrid

import (
	"context"
	"fmt"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// newDeadLetterStore picks where Event Grid's dead letters go: the blob
// services of the configured storage accounts (D-SINKS), or memory when none
// is configured. It returns the sink and the names of the accounts.
func newDeadLetterStore(conns []string, memory engine.Sink) (engine.Sink, []string, error) {
	if len(conns) == 0 {
		return memory, nil, nil
	}
	accounts := make([]azblobsink.Account, 0, len(conns))
	for _, conn := range conns {
		a, err := azblobsink.ParseConnectionString(conn)
		if err != nil {
			return nil, nil, fmt.Errorf("--azure-storage: %w", err)
		}
		accounts = append(accounts, a)
	}
	sink := azblobsink.New(accounts...)
	names := sink.Accounts()
	return accountFallback{sink: sink, names: names}, names, nil
}

// accountFallback lets a dead-letter destination naming a storage account
// that was not configured land in Azurite's development account when that
// one is configured (or in the only account configured): tests use
// production-looking resource ids, and the emulator has one Azurite.
type accountFallback struct {
	sink  engine.Sink
	names []string
}

func (f accountFallback) Write(ctx context.Context, dl engine.DeadLetter) error {
	account, rest, ok := strings.Cut(dl.Destination, "/")
	if ok && !f.has(account) {
		if fallback := f.fallback(); fallback != "" {
			dl.Destination = fallback + "/" + rest
		}
	}
	return f.sink.Write(ctx, dl)
}

func (f accountFallback) has(name string) bool {
	for _, n := range f.names {
		if n == name {
			return true
		}
	}
	return false
}

func (f accountFallback) fallback() string {
	if f.has(azblobsink.DevAccountName) {
		return azblobsink.DevAccountName
	}
	if len(f.names) == 1 {
		return f.names[0]
	}
	return ""
}
