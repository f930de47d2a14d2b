package compatsuite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// notServed is the skip reason the JS tests give when the binary does not
// serve their API (NOT_SERVED in js/helpers.mjs). Any other skip fails the
// suite: CI must not pass by skipping.
const notServed = "not served by this GridBridge binary"

// emulator is the running binary as the suites reach it.
type emulator struct {
	http, https, ca string
	// eventBridge and namespaces say whether the binary serves those APIs;
	// the tests of an API it does not serve are skipped and their rows say
	// "not yet".
	eventBridge, namespaces bool
	// sqs is the SQS server that GridBridge delivers SQS targets to.
	sqs string
	// azureStorage is the Azurite connection string dead letters go to.
	azureStorage string
	// sqsAPI is a second binary, started without --sqs-endpoint, that
	// serves the SQS API itself; sqsServed says whether it does.
	sqsAPI    string
	sqsServed bool
}

// TestCompatibility runs the JS SDK tests, the AWS CLI tests and the Python
// SDK tests (Debian's python3-azure and python3-boto3) against the
// built binary, then checks the README's compatibility table against what
// they proved (or rewrites it with GRIDBRIDGE_UPDATE_README=1).
func TestCompatibility(t *testing.T) {
	node := testenv.Node(t)
	sqsEndpoint := testenv.SQSEndpoint(t)
	azureStorage := testenv.AzureStorage(t)
	started := time.Now()

	flags := []string{"--clock", "virtual", "--no-jitter", "--no-probation", "--sqs-endpoint", sqsEndpoint,
		"--azure-storage", azureStorage}
	proc := testbinary.Start(t, flags...)
	emu := &emulator{http: proc.Endpoints["http"], https: proc.Endpoints["https"], ca: proc.Endpoints["ca"], sqs: sqsEndpoint,
		azureStorage: azureStorage}
	if emu.http == "" || emu.https == "" || emu.ca == "" {
		t.Fatalf("the binary's start-up lines named no http, https or ca: %v", proc.Endpoints)
	}
	emu.eventBridge = probe(t, http.MethodPost, emu.http+"/", map[string]string{
		"X-Amz-Target": "AWSEvents.ListEventBuses", "Content-Type": "application/x-amz-json-1.1",
	}, "{}")
	emu.namespaces = probe(t, http.MethodGet, emu.http+"/subscriptions/"+subscriptionID+
		"/resourceGroups/compat-probe/providers/Microsoft.EventGrid/namespaces?api-version=2025-02-15", nil, "")
	own := testbinary.Start(t, "--clock", "virtual", "--no-jitter", "--no-probation")
	emu.sqsAPI = own.Endpoints["http"]
	emu.sqsServed = probe(t, http.MethodPost, emu.sqsAPI+"/", map[string]string{
		"X-Amz-Target": "AmazonSQS.ListQueues", "Content-Type": "application/x-amz-json-1.0",
		// GridBridge checks no signature but serves no SQS request without one.
		"Authorization": "AWS4-HMAC-SHA256 Credential=000000000000/20260301/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=x",
	}, "{}")
	t.Logf("binary built and started in %v; EventBridge served: %v, namespaces served: %v, SQS served: %v",
		time.Since(started).Round(time.Millisecond), emu.eventBridge, emu.namespaces, emu.sqsServed)

	var js, cli, py, goLive, sqsCLI, pipesCLI, boto []row
	var pyVersions map[string]string
	cliRan, pyRan := false, false
	t.Run("suites", func(t *testing.T) {
		t.Run("js", func(t *testing.T) {
			t.Parallel()
			js = runNode(t, node, emu)
		})
		t.Run("aws-cli", func(t *testing.T) {
			t.Parallel()
			cli, cliRan = runAWSCLI(t, emu)
			if cliRan && emu.eventBridge {
				cli = append(cli, runSchedulerCLI(t, emu)...)
			}
		})
		t.Run("go-sdk-live-tests", func(t *testing.T) {
			t.Parallel()
			goLive = runSDKLiveTests(t)
		})
		t.Run("python", func(t *testing.T) {
			t.Parallel()
			// The Python suite moves the virtual clock (a dead letter is
			// written minutes after the last attempt), so it runs on a
			// binary of its own: on the shared one, the move would expire
			// the locks and timers the other suites hold meanwhile (a
			// namespace lock renewed by the JS suite, say).
			alone := testbinary.Start(t, flags...)
			own := *emu
			own.http, own.https, own.ca = alone.Endpoints["http"], alone.Endpoints["https"], alone.Endpoints["ca"]
			py, pyVersions, pyRan = runPython(t, &own)
		})
		t.Run("aws-cli-sqs", func(t *testing.T) {
			t.Parallel()
			sqsCLI = runAWSCLISQS(t, emu)
		})
		t.Run("aws-cli-pipes", func(t *testing.T) {
			t.Parallel()
			pipesCLI = runPipesCLI(t, emu)
		})
		t.Run("boto3", func(t *testing.T) {
			t.Parallel()
			boto = append(runBoto3SQS(t, emu), runBoto3Pipes(t, emu)...)
		})
	})
	t.Logf("suites finished %v after start", time.Since(started).Round(time.Millisecond))
	if t.Failed() {
		t.Log("README.md's compatibility table was not checked: the suite has failures")
		return
	}
	if !cliRan {
		t.Skip("README.md's compatibility table was not checked: the AWS CLI tests did not run")
	}
	if !pyRan {
		t.Skip("README.md's compatibility table was not checked: the Python SDKs are not installed")
	}
	versions := map[string]string{}
	for k, v := range pyVersions {
		versions[k] = v
	}
	for _, m := range sdkLiveModules() {
		versions[m] = sdkLiveVersion
	}
	checkREADME(t, slices.Concat(js, cli, py, goLive, sqsCLI, pipesCLI, boto), versions)
}

// subscriptionID is the Azure subscription the suites use (SUBSCRIPTION_ID in
// js/helpers.mjs).
const subscriptionID = "00000000-0000-0000-0000-000000000000"

// probe reports whether the binary serves a request: true on 200, false on
// 404 (no route), and a fatal error on anything else.
func probe(t *testing.T, method, url string, header map[string]string, body string) bool {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("probe %s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return true
	case http.StatusNotFound:
		return false
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	t.Fatalf("probe %s %s: HTTP %d %s; want 200 (served) or 404 (not served)", method, url, resp.StatusCode, b.String())
	return false
}

// result is one line of js/reporter.mjs.
type result struct {
	Name       string  `json:"name"`
	File       string  `json:"file"`
	Nesting    int     `json:"nesting"`
	Status     string  `json:"status"` // pass, fail, skip, todo
	Reason     string  `json:"reason"`
	DurationMs float64 `json:"durationMs"`
	Error      string  `json:"error"`
}

// runNode runs every js/*.test.mjs with Node's test runner against the
// emulator and returns one row per top-level test. It fails t if any test
// fails or skips for a reason other than notServed.
func runNode(t *testing.T, node string, emu *emulator) []row {
	if _, err := os.Stat(filepath.Join("js", "node_modules")); err != nil {
		t.Fatalf("compatsuite/js/node_modules is missing (%v): ./scripts/test.sh installs the pinned SDKs with npm ci", err)
	}
	files, err := filepath.Glob(filepath.Join("js", "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no js/*.test.mjs files (%v)", err)
	}
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	sort.Strings(files)
	resultsFile := filepath.Join(t.TempDir(), "results.jsonl")
	args := append([]string{
		"--test",
		// The files are independent and mostly wait on the network: run them all at once.
		"--test-concurrency=" + strconv.Itoa(len(files)),
		"--test-reporter=spec", "--test-reporter-destination=stdout",
		"--test-reporter=./reporter.mjs", "--test-reporter-destination=" + resultsFile,
	}, files...)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = "js"
	cmd.Env = append(loopbackEnv(os.Environ()),
		"GRIDBRIDGE_HTTP="+emu.http,
		"GRIDBRIDGE_HTTPS="+emu.https,
		"NODE_EXTRA_CA_CERTS="+emu.ca,
		"GRIDBRIDGE_COMPAT_EVENTBRIDGE="+servedWord(emu.eventBridge),
		"GRIDBRIDGE_COMPAT_NAMESPACES="+servedWord(emu.namespaces),
		"GRIDBRIDGE_COMPAT_SQS="+emu.sqs,
		"GRIDBRIDGE_SQS_API="+emu.sqsAPI,
		"GRIDBRIDGE_COMPAT_SQS_API="+servedWord(emu.sqsServed),
		"NO_COLOR=1",
	)
	started := time.Now()
	out, runErr := cmd.CombinedOutput()
	t.Logf("node --test %s (%v):\n%s", strings.Join(files, " "), time.Since(started).Round(time.Millisecond), out)

	results, err := readResults(resultsFile)
	if err != nil {
		t.Fatalf("reading the node test results: %v (node: %v)", err, runErr)
	}
	rows, problems := rowsOf(results)
	for _, p := range problems {
		t.Error(p)
	}
	if runErr != nil && len(problems) == 0 {
		t.Errorf("node --test failed (%v) though no test reported a failure; its output is above", runErr)
	}
	if len(rows) == 0 {
		t.Error("node --test reported no tests")
	}
	return rows
}

func servedWord(served bool) string {
	if served {
		return "served"
	}
	return "not-served"
}

// loopbackEnv keeps a configured HTTP proxy from seeing the suite's
// loopback traffic: the Azure SDKs and the AWS CLI honour HTTPS_PROXY.
func loopbackEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	noProxy := "127.0.0.1,localhost"
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.EqualFold(k, "NO_PROXY") {
			if v != "" {
				noProxy = v + "," + noProxy
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "NO_PROXY="+noProxy, "no_proxy="+noProxy)
}

func readResults(path string) ([]result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("line %q: %w", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// rowsOf turns test results into table rows and lists what is wrong with
// them: failures, unexpected skips, misnamed or duplicate tests.
func rowsOf(results []result) (rows []row, problems []string) {
	seen := map[string]bool{}
	for _, r := range results {
		where := filepath.Base(r.File)
		switch {
		case r.Status == "fail":
			problems = append(problems, fmt.Sprintf("%s: %q failed: %s", where, r.Name, r.Error))
		case r.Status == "skip" && r.Reason != notServed:
			problems = append(problems, fmt.Sprintf("%s: %q was skipped (%q); only %q may skip", where, r.Name, r.Reason, notServed))
		case r.Status == "todo":
			problems = append(problems, fmt.Sprintf("%s: %q is a todo (%q)", where, r.Name, r.Reason))
		}
		if r.Nesting > 0 || (r.Status == "fail" && !strings.Contains(r.Name, sep)) {
			continue // a subtest, or a file that failed as a whole (reported above)
		}
		pkg, op, ok := strings.Cut(r.Name, sep)
		if !ok || pkg == "" || op == "" {
			problems = append(problems, fmt.Sprintf("%s: test %q is not named \"<package>%s<operation>\"", where, r.Name, sep))
			continue
		}
		if seen[r.Name] {
			problems = append(problems, fmt.Sprintf("%s: two tests are named %q", where, r.Name))
			continue
		}
		seen[r.Name] = true
		status := statusTested
		switch r.Status {
		case "skip":
			status = statusNotYet
		case "fail", "todo":
			status = statusFailed
		}
		rows = append(rows, row{SDK: pkg, Operation: op, Status: status})
	}
	return rows, problems
}
