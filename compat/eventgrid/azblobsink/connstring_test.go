package azblobsink

import (
	"strings"
	"testing"
)

func TestParseConnectionString(t *testing.T) {
	t.Parallel()
	const key = "a2V5" // base64 of "key"
	tests := []struct {
		name string
		in   string
		want Account
	}{
		{
			name: "explicit endpoints, as Azurite documents",
			in:   "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + DevAccountKey + ";BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;",
			want: Account{Name: "devstoreaccount1", Key: DevAccountKey, BlobEndpoint: "http://127.0.0.1:10000/devstoreaccount1", QueueEndpoint: "http://127.0.0.1:10001/devstoreaccount1"},
		},
		{
			name: "blob endpoint only leaves the queue endpoint empty",
			in:   "DefaultEndpointsProtocol=http;AccountName=acct;AccountKey=" + key + ";BlobEndpoint=http://127.0.0.1:10000/acct/",
			want: Account{Name: "acct", Key: key, BlobEndpoint: "http://127.0.0.1:10000/acct"},
		},
		{
			name: "endpoint suffix",
			in:   "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + key + ";EndpointSuffix=core.chinacloudapi.cn",
			want: Account{Name: "acct", Key: key, BlobEndpoint: "https://acct.blob.core.chinacloudapi.cn", QueueEndpoint: "https://acct.queue.core.chinacloudapi.cn"},
		},
		{
			name: "no suffix and no endpoints means the public cloud over https",
			in:   "AccountName=acct;AccountKey=" + key,
			want: Account{Name: "acct", Key: key, BlobEndpoint: "https://acct.blob.core.windows.net", QueueEndpoint: "https://acct.queue.core.windows.net"},
		},
		{
			name: "explicit endpoint wins over the suffix, which fills in the other",
			in:   "AccountName=acct;AccountKey=" + key + ";EndpointSuffix=core.windows.net;BlobEndpoint=http://localhost:9/acct",
			want: Account{Name: "acct", Key: key, BlobEndpoint: "http://localhost:9/acct", QueueEndpoint: "https://acct.queue.core.windows.net"},
		},
		{
			name: "keys are case-insensitive and spaces around parts are ignored",
			in:   " accountname=acct ; ACCOUNTKEY=" + key + " ; defaultendpointsprotocol=HTTP ",
			want: Account{Name: "acct", Key: key, BlobEndpoint: "http://acct.blob.core.windows.net", QueueEndpoint: "http://acct.queue.core.windows.net"},
		},
		{
			name: "development storage",
			in:   "UseDevelopmentStorage=true",
			want: Account{Name: DevAccountName, Key: DevAccountKey, BlobEndpoint: "http://127.0.0.1:10000/devstoreaccount1", QueueEndpoint: "http://127.0.0.1:10001/devstoreaccount1"},
		},
		{
			name: "development storage through a proxy keeps its host, not its port",
			in:   "UseDevelopmentStorage=true;DevelopmentStorageProxyUri=https://azurite.test:8080",
			want: Account{Name: DevAccountName, Key: DevAccountKey, BlobEndpoint: "https://azurite.test:10000/devstoreaccount1", QueueEndpoint: "https://azurite.test:10001/devstoreaccount1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseConnectionString(tt.in)
			if err != nil {
				t.Fatalf("ParseConnectionString: %v", err)
			}
			if got != tt.want {
				t.Fatalf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseConnectionStringErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		wantErr string // a part of the message that tells the user what to fix
	}{
		{"empty", "", "empty"},
		{"only separators", ";;", "empty"},
		{"not key=value", "AccountName=acct;garbage", `"garbage" is not key=value`},
		{"empty key", "=x;AccountName=acct", "is not key=value"},
		{"duplicate key", "AccountName=a;accountname=b;AccountKey=a2V5", "accountname is given twice"},
		{"no account name", "AccountKey=a2V5;BlobEndpoint=http://h/", "AccountName is missing"},
		{"no account key", "AccountName=acct;BlobEndpoint=http://h/", "AccountKey is missing"},
		{"key not base64", "AccountName=acct;AccountKey=not base64!", "AccountKey is not base64"},
		{"bad protocol", "AccountName=acct;AccountKey=a2V5;DefaultEndpointsProtocol=ftp", "neither http nor https"},
		{"empty suffix", "AccountName=acct;AccountKey=a2V5;EndpointSuffix=", "EndpointSuffix is empty"},
		{"endpoint without scheme", "AccountName=acct;AccountKey=a2V5;BlobEndpoint=127.0.0.1:10000/acct", "BlobEndpoint"},
		{"endpoint without host", "AccountName=acct;AccountKey=a2V5;QueueEndpoint=http:///acct", "QueueEndpoint"},
		{"SAS", "BlobEndpoint=https://h/;SharedAccessSignature=sv=2020", "SharedAccessSignature is not supported"},
		{"development storage false", "UseDevelopmentStorage=false", `only "true" has a meaning`},
		{"development storage with an account", "UseDevelopmentStorage=true;AccountName=acct", "allows only DevelopmentStorageProxyUri"},
		{"development storage with a bad proxy", "UseDevelopmentStorage=true;DevelopmentStorageProxyUri=azurite", "DevelopmentStorageProxyUri"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseConnectionString(tt.in)
			if err == nil {
				t.Fatalf("ParseConnectionString(%q) = %+v, want an error", tt.in, got)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %q should contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseConnectionStringDoesNotEchoSecrets(t *testing.T) {
	t.Parallel()
	// A key pasted without its "AccountKey=" must not be printed whole.
	_, err := ParseConnectionString("AccountName=acct;" + DevAccountKey)
	if err == nil || strings.Contains(err.Error(), DevAccountKey) {
		t.Fatalf("error %v should not contain the key", err)
	}
}
