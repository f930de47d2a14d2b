package namespaces

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gridbridge/gridbridge/compat/eventgrid/azblobsink"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/deadletter"
	"github.com/gridbridge/gridbridge/emulator/engine"
)

// DeadLetterRecord is one dead-lettered event (NS-4).
type DeadLetterRecord = deadletter.Record

// DeadLetterBlob is one dead-letter blob and the records in it.
type DeadLetterBlob struct {
	// Name is the blob's name inside its container (NS-6).
	Name     string
	Location deadletter.Location
	Records  []DeadLetterRecord
}

// ParseDeadLetters reads the content of one dead-letter blob: a JSON array of
// records, or one record, keyed deadletterProperties or deadLetterProperties.
func ParseDeadLetters(blob []byte) ([]DeadLetterRecord, error) { return deadletter.Parse(blob) }

// BlobReader reads blobs; *azblobsink.Reader is one.
type BlobReader interface {
	List(ctx context.Context, account, container, prefix string) ([]azblobsink.BlobInfo, error)
	Read(ctx context.Context, account, container, name string) ([]byte, error)
}

var _ BlobReader = (*azblobsink.Reader)(nil)

// ReadDeadLetters reads every dead letter of one subscription from a storage
// container, oldest hour folder first.
func ReadDeadLetters(ctx context.Context, r BlobReader, account, container, namespace, topic, subscription string) ([]DeadLetterBlob, error) {
	infos, err := r.List(ctx, account, container, deadletter.SubscriptionPrefix(namespace, topic, subscription))
	if err != nil {
		return nil, err
	}
	out := make([]DeadLetterBlob, 0, len(infos))
	for _, info := range infos {
		data, err := r.Read(ctx, account, container, info.Name)
		if err != nil {
			return nil, err
		}
		blob, err := parseBlob(info.Name, data)
		if err != nil {
			return nil, err
		}
		out = append(out, blob)
	}
	sortBlobs(out)
	return out, nil
}

// DeadLettersFromMemory picks one subscription's dead letters out of what an
// in-memory sink holds (engine.MemorySink.List), oldest hour folder first.
func DeadLettersFromMemory(letters []engine.DeadLetter, account, container, namespace, topic, subscription string) ([]DeadLetterBlob, error) {
	prefix := account + "/" + container + "/"
	subPrefix := prefix + deadletter.SubscriptionPrefix(namespace, topic, subscription)
	var out []DeadLetterBlob
	for _, dl := range letters {
		if !strings.HasPrefix(dl.Destination, subPrefix) {
			continue
		}
		blob, err := parseBlob(strings.TrimPrefix(dl.Destination, prefix), dl.Body)
		if err != nil {
			return nil, err
		}
		out = append(out, blob)
	}
	sortBlobs(out)
	return out, nil
}

func parseBlob(name string, data []byte) (DeadLetterBlob, error) {
	loc, err := deadletter.ParseBlobPath(name)
	if err != nil {
		return DeadLetterBlob{}, err
	}
	records, err := deadletter.Parse(data)
	if err != nil {
		return DeadLetterBlob{}, fmt.Errorf("dead-letter blob %s: %w", name, err)
	}
	return DeadLetterBlob{Name: name, Location: loc, Records: records}, nil
}

// sortBlobs orders by hour folder (lexical order would put 2026/10 before
// 2026/9), then by name.
func sortBlobs(blobs []DeadLetterBlob) {
	sort.SliceStable(blobs, func(i, j int) bool {
		a, b := blobs[i].Location.Hour, blobs[j].Location.Hour
		if !a.Equal(b) {
			return a.Before(b)
		}
		return blobs[i].Name < blobs[j].Name
	})
}
