package compatsuite

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// python3 is Debian's interpreter, whose python3-boto3 (1.26) still speaks
// SQS's query protocol; scripts/test.sh installs it.
const python3 = "/usr/bin/python3"

// boto3 is the package name of the boto3 rows.
const boto3 = "boto3 (query protocol)"

// runBoto3SQS runs boto3/sqs_query.py against the binary that serves SQS
// itself and returns one row per step.
func runBoto3SQS(t *testing.T, emu *emulator) []row {
	steps := []string{
		"CreateQueue", "GetQueueUrl", "ListQueues", "SetQueueAttributes and GetQueueAttributes",
		"TagQueue, UntagQueue and ListQueueTags", "SendMessage and ReceiveMessage", "batches", "FIFO queue",
		"ListDeadLetterSourceQueues", "PurgeQueue and DeleteQueue",
	}
	if !emu.sqsServed {
		var rows []row
		for _, s := range steps {
			rows = append(rows, row{SDK: boto3, Operation: "sqs " + s, Status: statusNotYet})
		}
		return rows
	}
	requireBoto3(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python3, "boto3/sqs_query.py", emu.sqsAPI)
	cmd.Env = awsEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	t.Logf("python3 boto3/sqs_query.py:\n%s%s", out, stderr.String())
	done := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var line struct {
			Op       string `json:"op"`
			OK       bool   `json:"ok"`
			Error    string `json:"error"`
			Protocol string `json:"protocol"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Errorf("boto3 printed %q: %v", sc.Text(), err)
			continue
		}
		switch {
		case line.Op == "version" && line.Protocol != "query":
			t.Errorf("boto3 speaks SQS's %q protocol here; this step proves the query protocol", line.Protocol)
		case !line.OK:
			t.Errorf("%s%ssqs %s: %s", boto3, sep, line.Op, line.Error)
		default:
			done[line.Op] = true
		}
	}
	if runErr != nil && !t.Failed() {
		t.Errorf("python3 boto3/sqs_query.py: %v", runErr)
	}
	var rows []row
	for _, s := range steps {
		status := statusFailed
		if done[s] {
			status = statusTested
		}
		rows = append(rows, row{SDK: boto3, Operation: "sqs " + s, Status: status})
	}
	return rows
}

// requireBoto3 fails under CI, and skips elsewhere, when Debian's boto3 is
// missing.
func requireBoto3(t *testing.T) {
	t.Helper()
	if err := exec.Command(python3, "-c", "import boto3").Run(); err == nil {
		return
	}
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		t.Fatalf("%s cannot import boto3, and CI=%s: ./scripts/test.sh installs python3-boto3 when run as root", python3, os.Getenv("CI"))
	}
	t.Skipf("%s cannot import boto3: ./scripts/test.sh installs python3-boto3 when run as root", python3)
}
