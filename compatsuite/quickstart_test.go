package compatsuite

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// quickStart is one file under examples/quickstart: the command the README
// runs it with (from the repository's root) and the flags its emulator is
// started with (its header says so too: go run ./cmd/emulator <flags>).
type quickStart struct {
	command string
	flags   []string
	// needs names what the command calls besides the emulator: "aws",
	// "curl", "python" (Debian's Azure and AWS SDKs), "node" (the pinned
	// Node.js and examples/quickstart/js/node_modules), "azurite".
	needs []string
}

// file is the quick start the command runs: its last word.
func (q quickStart) file() string {
	f := strings.Fields(q.command)
	return f[len(f)-1]
}

func quickStarts() []quickStart {
	return []quickStart{
		{command: "bash examples/quickstart/aws-cli/events.sh", needs: []string{"aws"}},
		{command: "bash examples/quickstart/aws-cli/sqs.sh", needs: []string{"aws"}},
		{command: "bash examples/quickstart/aws-cli/pipes.sh", needs: []string{"aws"}},
		{command: "bash examples/quickstart/aws-cli/scheduler.sh", flags: []string{"--clock", "virtual"}, needs: []string{"aws", "curl"}},
		{command: "bash examples/quickstart/aws-cli/eventsv2.sh", needs: []string{"aws"}},
		{command: "python3 examples/quickstart/python/eventbridge_boto3.py", needs: []string{"python"}},
		{command: "python3 examples/quickstart/python/eventgrid_azure.py", flags: []string{"--clock", "virtual", "--azure-storage"}, needs: []string{"python", "azurite"}},
		{command: "node examples/quickstart/js/eventgrid.mjs", needs: []string{"node"}},
		{command: "node examples/quickstart/js/eventbridge.mjs", needs: []string{"node"}},
		{command: "go run ./examples/quickstart/go"},
	}
}

// TestQuickStarts runs every quick start as the README says to, each
// against its own emulator binary started with the flags the quick start
// names. Each file asserts its own result and exits non-zero when it is
// wrong. The README and each file's header must show the commands run
// here, so what a reader pastes is what CI ran.
func TestQuickStarts(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "examples", "quickstart", "*", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, q := range quickStarts() {
		listed[q.file()] = true
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		if strings.HasSuffix(rel, ".sh") || strings.HasSuffix(rel, ".py") || strings.HasSuffix(rel, ".mjs") {
			if !listed[filepath.ToSlash(rel)] {
				t.Errorf("%s is a quick start that TestQuickStarts does not run", rel)
			}
		}
	}

	for _, q := range quickStarts() {
		file := q.file()
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			if !bytes.Contains(readme, []byte(q.command)) {
				t.Errorf("README.md does not show the command %q", q.command)
			}
			source := file
			if strings.HasPrefix(file, "./") {
				source = filepath.Join(file, "main.go")
			}
			header, err := os.ReadFile(filepath.Join(root, source))
			if err != nil {
				t.Fatal(err)
			}
			emulatorLine := strings.TrimSpace("go run ./cmd/emulator " + strings.Join(q.flags, " "))
			if !bytes.Contains(header, []byte(emulatorLine)) {
				t.Errorf("%s does not say it runs against %q", source, emulatorLine)
			}
			runQuickStart(t, root, q)
		})
	}
}

// runQuickStart starts the emulator and runs q's command in root with what
// it needs on PATH and in its environment.
func runQuickStart(t *testing.T, root string, q quickStart) {
	bin := t.TempDir()
	env := awsEnv(t)
	flags := q.flags
	for _, need := range q.needs {
		switch need {
		case "aws":
			aws := testenv.AWSCLI(t)
			// `aws configure add-model` writes under ~/.aws: a home of the
			// test's own.
			env = append(env, "HOME="+t.TempDir())
			// A pyenv shim finds its installation through $HOME unless
			// PYENV_ROOT says where it is.
			if os.Getenv("PYENV_ROOT") == "" && filepath.Base(filepath.Dir(aws)) == "shims" {
				env = append(env, "PYENV_ROOT="+filepath.Dir(filepath.Dir(aws)))
			}
		case "curl":
			testenv.Curl(t)
		case "python":
			link(t, testenv.PythonSDKs(t), filepath.Join(bin, "python3"))
			env = pythonEnv(env)
		case "node":
			link(t, testenv.Node(t), filepath.Join(bin, "node"))
			if _, err := os.Stat(filepath.Join(root, "examples", "quickstart", "js", "node_modules")); err != nil {
				t.Fatalf("examples/quickstart/js/node_modules is missing (%v): ./scripts/test.sh installs it with npm ci", err)
			}
		case "azurite":
			storage := testenv.AzureStorage(t)
			// The README's UseDevelopmentStorage=true is Azurite on its
			// default port; the suite's Azurite has its own.
			flags = append(append([]string(nil), flags...), storage)
			env = append(env, "AZURE_STORAGE_CONNECTION_STRING="+storage)
		}
	}
	proc := testbinary.Start(t, flags...)
	env = append(env,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GRIDBRIDGE_URL="+proc.Endpoints["http"],
		"GRIDBRIDGE_TLS_URL="+proc.Endpoints["https"],
		"NODE_EXTRA_CA_CERTS="+proc.Endpoints["ca"],
		"NO_COLOR=1",
	)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", q.command)
	cmd.Dir = root
	cmd.Env = env
	started := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s (%v):\n%s", q.command, time.Since(started).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("%s: %v", q.command, err)
	}
	if !bytes.Contains(out, []byte("ok: ")) {
		t.Fatalf("%s printed no ok line", q.command)
	}
}

func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}
