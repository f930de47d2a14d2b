package compatsuite

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testbinary"
)

// The Azure SDK for Go modules whose own tests (shipped in their module
// zips) the suite runs unchanged against the binary, in live mode.
const (
	sdkModuleRoot  = "github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/"
	sdkLiveVersion = "v1.0.0"
)

func sdkLiveModules() []string { return []string{"azeventgrid", "aznamespaces"} }

// liveResult is one test, subtest or example as go test -json reports it.
type liveResult struct{ Module, Test, Action string }

// runSDKLiveTests starts its own binary on the real clock (the namespace
// tests wait out lock and release delays in real time), creates what the
// tests' environment names (two basic topics, a namespace with a topic and
// a queue subscription), and runs `go test` in a copy of each module with
// AZURE_RECORD_MODE=live. Tokens come from the emulator's authority (AD FS
// shape, which azidentity 1.5 sends without instance discovery;
// DefaultAzureCredential reads the AZURE_* variables, SSL_CERT_FILE makes
// Go trust the emulator's CA). It returns one row per result and checks
// that the same tests fail with wrong keys.
func runSDKLiveTests(t *testing.T) []row {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to run the SDKs' own tests: %v", err)
	}
	proc := testbinary.Start(t)
	https, caFile := proc.Endpoints["https"], proc.Endpoints["ca"]
	env, err := provisionLiveResources(t.Context(), https, caFile)
	if err != nil {
		t.Fatalf("creating the resources the SDK tests use: %v", err)
	}
	dirs := map[string]string{}
	for _, m := range sdkLiveModules() {
		dirs[m] = copyModule(t, goBin, sdkModuleRoot+m+"@"+sdkLiveVersion)
	}

	var rows []row
	for _, m := range sdkLiveModules() {
		results, out, runErr := goTestJSON(t, goBin, dirs[m], env)
		t.Logf("%s: go test -json (live): %d results, err %v", m, len(results), runErr)
		passed := 0
		for _, r := range results {
			switch r.Action {
			case "pass":
				passed++
				rows = append(rows, row{SDK: m, Operation: "own live test " + r.Test, Status: statusTested})
			default:
				t.Errorf("%s: %s %s", m, r.Test, r.Action)
			}
		}
		if runErr != nil || passed == 0 || passed != len(results) {
			t.Errorf("%s: %d of %d passed (go test: %v); output:\n%s", m, passed, len(results), runErr, out)
		}
	}

	// The same tests with wrong keys (FORCE_SASKEY makes the namespace tests
	// use the key instead of a token): everything that proves a key must fail.
	wrong := append([]string(nil), env...)
	const wrongKey = "d3Jvbmcta2V5LWZvci10aGUtdG9waWMtMTIzNDU2Nzg="
	for _, k := range []string{"EVENTGRID_TOPIC_KEY", "EVENTGRID_CE_TOPIC_KEY", "EVENTGRID_KEY"} {
		wrong = append(wrong, k+"="+wrongKey)
	}
	wrong = append(wrong, "FORCE_SASKEY=true")
	for _, m := range sdkLiveModules() {
		results, out, runErr := goTestJSON(t, goBin, dirs[m], wrong)
		if runErr == nil {
			t.Errorf("%s passed with wrong keys; output:\n%s", m, out)
		}
		for _, r := range results {
			keyed := strings.HasSuffix(r.Test, "/sas") || strings.HasSuffix(r.Test, "/sharedkey") ||
				(m == "aznamespaces" && strings.HasPrefix(r.Test, "Test"))
			if keyed && r.Action == "pass" {
				t.Errorf("%s: %s passed with a wrong key", m, r.Test)
			}
		}
		t.Logf("%s with wrong keys: go test failed as it should (%v)", m, runErr)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].SDK+rows[i].Operation < rows[j].SDK+rows[j].Operation })
	return rows
}

// provisionLiveResources creates, through ARM, the topics, namespace, topic
// and subscription the SDK tests read from their environment, and returns
// that environment.
func provisionLiveResources(ctx context.Context, https, caFile string) ([]string, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	base := https + "/subscriptions/" + subscriptionID + "/resourceGroups/sdk-live/providers/Microsoft.EventGrid/"
	call := func(method, path, body string) (map[string]any, error) {
		req, err := http.NewRequestWithContext(ctx, method, base+path+"?api-version=2025-02-15", strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer compat")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			return nil, fmt.Errorf("%s %s: HTTP %d %s", method, path, resp.StatusCode, raw)
		}
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return out, nil
	}
	steps := []struct{ method, path, body string }{
		{"PUT", "topics/live-eg", `{"location":"westus"}`},
		{"PUT", "topics/live-ce", `{"location":"westus","properties":{"inputSchema":"CloudEventSchemaV1_0"}}`},
		{"PUT", "namespaces/live-ns", `{"location":"westus","sku":{"name":"Standard","capacity":1}}`},
		{"PUT", "namespaces/live-ns/topics/testtopic1", `{"properties":{"inputSchema":"CloudEventSchemaV1_0","publisherType":"Custom"}}`},
		{"PUT", "namespaces/live-ns/topics/testtopic1/eventSubscriptions/testsubscription1",
			`{"properties":{"eventDeliverySchema":"CloudEventSchemaV1_0","deliveryConfiguration":{"deliveryMode":"Queue","queue":{"receiveLockDurationInSeconds":60,"maxDeliveryCount":5}}}}`},
	}
	for _, s := range steps {
		if _, err := call(s.method, s.path, s.body); err != nil {
			return nil, err
		}
	}
	key := func(path string) (string, error) {
		out, err := call("POST", path+"/listKeys", "")
		if err != nil {
			return "", err
		}
		k, _ := out["key1"].(string)
		return k, nil
	}
	env := []string{
		"AZURE_RECORD_MODE=live",
		// DefaultAzureCredential → EnvironmentCredential → the emulator's authority.
		"AZURE_TENANT_ID=adfs", "AZURE_CLIENT_ID=sdk-live-tests", "AZURE_CLIENT_SECRET=sdk-live-secret",
		"AZURE_SUBSCRIPTION_ID=" + subscriptionID, "AZURE_AUTHORITY_HOST=" + https,
		"SSL_CERT_FILE=" + caFile,
		"EVENTGRID_TOPIC_NAME=live-eg", "EVENTGRID_TOPIC_ENDPOINT=" + https + "/topics/live-eg/api/events",
		"EVENTGRID_CE_TOPIC_NAME=live-ce", "EVENTGRID_CE_TOPIC_ENDPOINT=" + https + "/topics/live-ce/api/events",
		"EVENTGRID_ENDPOINT=" + https + "/eventgrid/namespaces/live-ns",
		"EVENTGRID_TOPIC=testtopic1", "EVENTGRID_SUBSCRIPTION=testsubscription1",
	}
	for name, path := range map[string]string{"EVENTGRID_TOPIC_KEY": "topics/live-eg", "EVENTGRID_CE_TOPIC_KEY": "topics/live-ce", "EVENTGRID_KEY": "namespaces/live-ns"} {
		k, err := key(path)
		if err != nil {
			return nil, err
		}
		env = append(env, name+"="+k)
	}
	return env, nil
}

// copyModule downloads a module (go mod download) and copies it to a
// writable directory: the module cache is read-only.
func copyModule(t *testing.T, goBin, modVersion string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), goBin, "mod", "download", "-json", modVersion)
	cmd.Env = goEnv(os.Environ())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v\n%s", modVersion, err, out)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %v %s", modVersion, err, out)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(info.Dir))
	err = filepath.WalkDir(info.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(info.Dir, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", info.Dir, err)
	}
	return dst
}

// goEnv keeps the caller's Go settings from changing how the module builds.
func goEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "GOFLAGS" || k == "GOWORK" || strings.HasPrefix(k, "AZURE_") || strings.HasPrefix(k, "EVENTGRID_") || k == "SSL_CERT_FILE" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GOWORK=off", "GOFLAGS=-mod=mod")
}

// goTestJSON runs the module's tests and returns every final test result.
func goTestJSON(t *testing.T, goBin, dir string, env []string) ([]liveResult, string, error) {
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "test", "-count=1", "-json", ".")
	cmd.Dir = dir
	cmd.Env = append(loopbackEnv(goEnv(os.Environ())), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var results []liveResult
	var text strings.Builder
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			text.WriteString(sc.Text() + "\n")
			continue
		}
		text.WriteString(e.Output)
		if e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			results = append(results, liveResult{Module: filepath.Base(dir), Test: e.Test, Action: e.Action})
		}
	}
	return results, text.String() + stderr.String(), runErr
}
