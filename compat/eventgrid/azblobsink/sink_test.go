package azblobsink

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"

	"github.com/gridbridge/gridbridge/emulator/engine"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// azurite is one test's view of the Azurite that ./scripts/test.sh started:
// the account, a client from the official SDK that checks what the sink did
// independently of it, and a fresh container of the test's own.
type azurite struct {
	account   Account
	sdk       *azblob.Client
	container string
}

func newAzurite(t *testing.T) azurite {
	t.Helper()
	conn := testenv.AzureStorage(t)
	account, err := ParseConnectionString(conn)
	if err != nil {
		t.Fatalf("%s: %v", testenv.AzureStorageVar, err)
	}
	// One try: if Azurite is down, say so now rather than after the SDK's backoff.
	sdk, err := azblob.NewClientFromConnectionString(conn, &azblob.ClientOptions{
		ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}},
	})
	if err != nil {
		t.Fatalf("azblob client: %v", err)
	}
	name := uniqueName("dlq-")
	if _, err := sdk.CreateContainer(t.Context(), name, nil); err != nil {
		t.Fatalf("create container %s: %v", name, err)
	}
	t.Cleanup(func() {
		// t.Context is already done during cleanup.
		_, _ = sdk.DeleteContainer(context.Background(), name, nil)
	})
	return azurite{account: account, sdk: sdk, container: name}
}

func (a azurite) destination(blobName string) string {
	return a.account.Name + "/" + a.container + "/" + blobName
}

// uniqueName gives each test its own container, so tests run in parallel
// and a second run never meets the first one's blobs.
func uniqueName(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func TestWriteStoresBodyContentTypeAndMetadata(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	sink := New(az.account)

	// Event Grid's layout: SUBSCRIPTION/yyyy/M/d/H/<guid>.json (EG-23).
	name := "MY-SUB/2026/11/30/2/11111111-1111-1111-1111-111111111111.json"
	body := []byte(`[{"id":"1","deadLetterReason":"MaxDeliveryAttemptsExceeded","data":"ü\u0000"}]` + "\n")
	err := sink.Write(t.Context(), engine.DeadLetter{
		Destination: az.destination(name),
		Body:        body,
		ContentType: "application/cloudevents-batch+json; charset=utf-8",
		Attributes: []engine.Attribute{
			{Name: "ERROR_CODE", Type: "String", Value: "DELIVERY_FAILED"},
			{Name: "RetryAttempts", Type: "Number", Value: "3"},
		},
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}

	// Read back through the SDK, not through the sink's own Reader.
	dl, err := az.sdk.DownloadStream(t.Context(), az.container, name, nil)
	if err != nil {
		t.Fatalf("download: %v", err)
	}
	got, err := io.ReadAll(dl.Body)
	dl.Body.Close()
	if err != nil {
		t.Fatalf("download body: %v", err)
	}
	if !bytes.Equal(got, body) {
		t.Fatalf("blob content\n got %q\nwant %q", got, body)
	}
	if ct := deref(dl.ContentType); ct != "application/cloudevents-batch+json; charset=utf-8" {
		t.Errorf("content type = %q", ct)
	}
	wantMeta := map[string]string{"error_code": "DELIVERY_FAILED", "retryattempts": "3"}
	gotMeta := map[string]string{}
	for k, v := range dl.Metadata {
		gotMeta[strings.ToLower(k)] = deref(v)
	}
	if fmt.Sprint(gotMeta) != fmt.Sprint(wantMeta) {
		t.Errorf("metadata = %v, want %v", gotMeta, wantMeta)
	}
}

func TestWriteDefaultsToJSON(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	if err := New(az.account).Write(t.Context(), engine.DeadLetter{Destination: az.destination("a.json"), Body: []byte("[]")}); err != nil {
		t.Fatalf("Write: %v", err)
	}
	props, err := az.sdk.ServiceClient().NewContainerClient(az.container).NewBlobClient("a.json").GetProperties(t.Context(), nil)
	if err != nil {
		t.Fatalf("get properties: %v", err)
	}
	if ct := deref(props.ContentType); ct != "application/json" {
		t.Fatalf("content type = %q, want application/json", ct)
	}
}

func TestReaderListsAndReadsWhatTheSinkWrote(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	sink := New(az.account)

	// Concurrent writes also put the Sink's concurrency claim under -race.
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = sink.Write(t.Context(), engine.DeadLetter{
				Destination: az.destination(fmt.Sprintf("SUB/2026/1/2/3/%02d.json", i)),
				Body:        fmt.Appendf(nil, `[{"n":%d}]`, i),
				Attributes:  []engine.Attribute{{Name: "N", Type: "Number", Value: fmt.Sprint(i)}},
			})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if err := sink.Write(t.Context(), engine.DeadLetter{Destination: az.destination("OTHER/x.json"), Body: []byte("[]")}); err != nil {
		t.Fatalf("Write: %v", err)
	}

	reader := sink.Reader()
	blobs, err := reader.List(t.Context(), az.account.Name, az.container, "SUB/")
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(blobs) != n {
		t.Fatalf("List returned %d blobs, want %d: %+v", len(blobs), n, blobs)
	}
	for i, b := range blobs {
		want := fmt.Appendf(nil, `[{"n":%d}]`, i)
		if b.Name != fmt.Sprintf("SUB/2026/1/2/3/%02d.json", i) || b.Size != int64(len(want)) ||
			b.ContentType != "application/json" || b.Metadata["n"] != fmt.Sprint(i) || b.LastModified.IsZero() {
			t.Errorf("blob %d = %+v", i, b)
		}
		got, err := reader.Read(t.Context(), az.account.Name, az.container, b.Name)
		if err != nil {
			t.Fatalf("Read %s: %v", b.Name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("Read %s = %q, want %q", b.Name, got, want)
		}
	}
}

func TestReaderReportsMissingAsNotExist(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	reader := NewReader(az.account)
	if _, err := reader.Read(t.Context(), az.account.Name, az.container, "nope.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read of a missing blob: %v, want fs.ErrNotExist", err)
	}
	if _, err := reader.List(t.Context(), az.account.Name, uniqueName("gone-"), ""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List of a missing container: %v, want fs.ErrNotExist", err)
	}
	if blobs, err := reader.List(t.Context(), az.account.Name, az.container, ""); err != nil || len(blobs) != 0 {
		t.Errorf("List of an empty container = %v, %v; want none", blobs, err)
	}
}

func TestWriteToMissingContainerIsDestinationNotFound(t *testing.T) {
	t.Parallel()
	az := newAzurite(t)
	missing := uniqueName("missing-")
	err := New(az.account).Write(t.Context(), engine.DeadLetter{Destination: az.account.Name + "/" + missing + "/x.json", Body: []byte("[]")})
	if !errors.Is(err, engine.ErrDestinationNotFound) {
		t.Fatalf("Write: %v, want ErrDestinationNotFound", err)
	}
	if !strings.Contains(err.Error(), missing) {
		t.Errorf("error %q should name the container", err)
	}
	// The sink must not have created it: Azure requires it to exist (EG-22).
	if _, err := NewReader(az.account).List(t.Context(), az.account.Name, missing, ""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("container %s exists after the failed write (List: %v)", missing, err)
	}
}

func TestWriteRejectsDestinationsThatCannotExist(t *testing.T) {
	t.Parallel()
	// No service is needed: each of these fails before any request.
	sink := New(Account{Name: "acct", Key: DevAccountKey, BlobEndpoint: "http://127.0.0.1:1/acct"})
	tests := []struct {
		dest    string
		wantErr string
	}{
		{"", "is not <account>/<container>/<blob path>"},
		{"acct/dlq", "is not <account>/<container>/<blob path>"},
		{"acct//x.json", "is not <account>/<container>/<blob path>"},
		{"/dlq/x.json", "is not <account>/<container>/<blob path>"},
		{"acct/dlq/", "is not <account>/<container>/<blob path>"},
		{"devstoreaccount1/dlq/x.json", `storage account "devstoreaccount1" is not configured (configured: acct)`},
		{"ACCT/dlq/x.json", `storage account "ACCT" is not configured (configured: acct)`},
		{"acct/c1/x.json", "3 to 63 characters"},
		{"acct/Dlq/x.json", "only lower-case letters"},
		{"acct/dl--q/x.json", "hyphen"},
		{"acct/-dlq/x.json", "hyphen"},
	}
	for _, tt := range tests {
		err := sink.Write(t.Context(), engine.DeadLetter{Destination: tt.dest, Body: []byte("[]")})
		if !errors.Is(err, engine.ErrDestinationNotFound) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Write(%q): %v; want ErrDestinationNotFound saying %q", tt.dest, err, tt.wantErr)
		}
	}
}

func TestMisconfiguredAccountSaysWhy(t *testing.T) {
	t.Parallel()
	sink := New(
		Account{Name: "good", Key: DevAccountKey, BlobEndpoint: "http://127.0.0.1:1/good"},
		Account{Name: "nokey", Key: "not base64!", BlobEndpoint: "http://127.0.0.1:1/nokey"},
		Account{Name: "noblob", Key: DevAccountKey, QueueEndpoint: "http://127.0.0.1:1/noblob"},
	)
	if got := fmt.Sprint(sink.Accounts()); got != "[good]" {
		t.Errorf("Accounts() = %s, want [good]", got)
	}
	for _, account := range []string{"nokey", "noblob"} {
		err := sink.Write(t.Context(), engine.DeadLetter{Destination: account + "/dlq/x.json"})
		if !errors.Is(err, engine.ErrDestinationNotFound) || !strings.Contains(err.Error(), "misconfigured") {
			t.Errorf("Write to %s: %v; want ErrDestinationNotFound saying it is misconfigured", account, err)
		}
	}
}

func TestWriteRejectsAttributesThatCannotBeMetadata(t *testing.T) {
	t.Parallel()
	sink := New(Account{Name: "acct", Key: DevAccountKey, BlobEndpoint: "http://127.0.0.1:1/acct"})
	for _, attrs := range [][]engine.Attribute{
		{{Name: "error-code", Value: "x"}},
		{{Name: "1st", Value: "x"}},
		{{Name: "", Value: "x"}},
		{{Name: "Code", Value: "x"}, {Name: "CODE", Value: "y"}},
	} {
		err := sink.Write(t.Context(), engine.DeadLetter{Destination: "acct/dlq/x.json", Attributes: attrs})
		if err == nil || !strings.Contains(err.Error(), "metadata") {
			t.Errorf("Write with attributes %v: %v; want an error about metadata", attrs, err)
		}
	}
}

func TestWriteWhenServiceIsDownFailsFastAndTransiently(t *testing.T) {
	t.Parallel()
	account := Account{Name: DevAccountName, Key: DevAccountKey, BlobEndpoint: "http://" + closedAddr(t) + "/" + DevAccountName}
	start := time.Now()
	err := New(account).Write(t.Context(), engine.DeadLetter{Destination: DevAccountName + "/dlq/x.json", Body: []byte("[]")})
	elapsed := time.Since(start)
	if err == nil || errors.Is(err, engine.ErrDestinationNotFound) {
		t.Fatalf("Write: %v; want a transient error", err)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("Write took %v to fail; the engine's retries need it to fail fast", elapsed)
	}
}

// closedAddr returns a loopback address that nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
