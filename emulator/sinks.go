package emulator

import (
	"context"
	"fmt"
	"strings"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/emulator/sinks/azblobsink"
	"github.com/gridbridge/gridbridge/emulator/sinks/sqssink"
)

// deadLetterSinks are where each cloud's dead letters go: real services when
// configured (D-SINKS), the in-memory default otherwise.
type deadLetterSinks struct {
	blob     engine.Sink
	blobRead *azblobsink.Reader // nil when blobs stay in memory
	sqs      engine.Sink        // nil when SQS stays in memory (the cloud face keeps its own)
	accounts []string           // configured storage account names
}

func (s *Server) newDeadLetterSinks() (deadLetterSinks, error) {
	var out deadLetterSinks
	if len(s.opts.AzureStorage) == 0 {
		out.blob = s.memory
	} else {
		accounts := make([]azblobsink.Account, 0, len(s.opts.AzureStorage))
		for _, conn := range s.opts.AzureStorage {
			a, err := azblobsink.ParseConnectionString(conn)
			if err != nil {
				return out, fmt.Errorf("--azure-storage: %w", err)
			}
			accounts = append(accounts, a)
		}
		sink := azblobsink.New(accounts...)
		out.accounts = sink.Accounts()
		out.blob = accountFallback{sink: sink, names: out.accounts}
		out.blobRead = sink.Reader()
	}
	if s.opts.SQSEndpoint != "" {
		// Writes to one queue that pile up behind a send go out together
		// (SendMessageBatch), so the external path keeps pace.
		out.sqs = sqssink.New(s.opts.SQSEndpoint).Batching()
	}
	return out, nil
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
