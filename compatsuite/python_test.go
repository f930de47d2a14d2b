package compatsuite

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testenv"
)

// runPython runs python/suite.py with Debian's Python SDKs against the
// emulator and returns one row per test and the versions of the packages it
// drove. ran is false when the SDKs are missing (testenv.PythonSDKs skips t
// then, or fails it under CI).
//
// Credentials come from the emulator's Entra ID authority in its AD FS
// shape (tenant "adfs"): Debian's azure-identity 1.13.0b2 cannot turn off
// instance discovery, which for an Entra-shaped authority asks
// login.microsoftonline.com first. The AZURE_* variables are what
// DefaultAzureCredential reads; REQUESTS_CA_BUNDLE makes it trust the
// emulator's CA.
func runPython(t *testing.T, emu *emulator) (rows []row, versions map[string]string, ran bool) {
	python := testenv.PythonSDKs(t)
	resultsFile := filepath.Join(t.TempDir(), "results.jsonl")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "suite.py")
	cmd.Dir = "python"
	cmd.Env = append(pythonEnv(loopbackEnv(os.Environ())),
		"GRIDBRIDGE_HTTP="+emu.http,
		"GRIDBRIDGE_HTTPS="+emu.https,
		"GRIDBRIDGE_CA="+emu.ca,
		"GRIDBRIDGE_AZURE_STORAGE="+emu.azureStorage,
		"GRIDBRIDGE_PY_RESULTS="+resultsFile,
		"AZURE_TENANT_ID=adfs",
		"AZURE_CLIENT_ID=compat-python-env",
		"AZURE_CLIENT_SECRET=compat-python-secret",
		"AZURE_AUTHORITY_HOST="+emu.https,
		"REQUESTS_CA_BUNDLE="+emu.ca,
		"PYTHONDONTWRITEBYTECODE=1",
	)
	started := time.Now()
	out, runErr := cmd.CombinedOutput()
	t.Logf("%s suite.py (%v):\n%s", python, time.Since(started).Round(time.Millisecond), out)

	results, versions, err := readPythonResults(resultsFile)
	if err != nil {
		t.Fatalf("reading the Python suite's results: %v (python: %v)", err, runErr)
	}
	rows, problems := rowsOf(results)
	for _, p := range problems {
		t.Error(p)
	}
	if runErr != nil && len(problems) == 0 {
		t.Errorf("suite.py failed (%v) though no test reported a failure; its output is above", runErr)
	}
	if len(rows) == 0 {
		t.Error("suite.py reported no tests")
	}
	return rows, versions, true
}

// pythonEnv drops variables that would make /usr/bin/python3 load another
// interpreter's packages (a pyenv or virtualenv on the caller's PATH).
func pythonEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET",
			"AZURE_AUTHORITY_HOST", "AZURE_CLIENT_CERTIFICATE_PATH", "AZURE_USERNAME", "AZURE_PASSWORD", "REQUESTS_CA_BUNDLE":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// readPythonResults reads suite.py's lines: one result per test, and a
// last {"versions": {...}} line.
func readPythonResults(path string) ([]result, map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var results []result
	versions := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var v struct {
			Versions map[string]string `json:"versions"`
		}
		if err := json.Unmarshal([]byte(line), &v); err == nil && v.Versions != nil {
			for k, ver := range v.Versions {
				versions[k] = ver
			}
			continue
		}
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, nil, err
		}
		results = append(results, r)
	}
	return results, versions, nil
}
