package eventgrid

import (
	"strings"
	"testing"
)

// A Storage Queue destination names its account by resource id; the
// emulator uses that account when configured, else Azurite's development
// account, else the only account it has, and says why when none fits.
func TestStorageQueueAccountChoice(t *testing.T) {
	t.Parallel()
	conn := func(name string) string {
		return "DefaultEndpointsProtocol=http;AccountName=" + name + ";AccountKey=a2V5;QueueEndpoint=http://127.0.0.1:1/" + name + ";"
	}
	dev := "UseDevelopmentStorage=true"
	for _, tc := range []struct {
		conns         []string
		account, want string // want "" means no account fits
	}{
		{[]string{conn("prod"), dev}, "prod", "prod"},
		{[]string{conn("prod"), dev}, "other", "devstoreaccount1"},
		{[]string{conn("prod")}, "other", "prod"},
		{[]string{conn("prod"), conn("test")}, "other", ""},
	} {
		_, got, err := newStorageQueues(tc.conns).service(tc.account)
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("accounts %v, destination %q: chose %q (%v), want %q", tc.conns, tc.account, got, err, tc.want)
		}
	}
	blobOnly := newStorageQueues([]string{"DefaultEndpointsProtocol=http;AccountName=blobs;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:1/blobs;"})
	if blobOnly.configured() {
		t.Fatal("an account without a QueueEndpoint counts as a queue service")
	}
	if _, _, err := blobOnly.service("blobs"); err == nil || !strings.Contains(err.Error(), "QueueEndpoint") {
		t.Fatalf("error %v, want it to say the account has no QueueEndpoint", err)
	}
}
