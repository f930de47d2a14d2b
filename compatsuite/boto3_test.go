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
	return runBoto3(t, emu, boto3Script{
		file: "boto3/sqs_query.py", sdk: boto3, prefix: "sqs ", service: "sqs", protocol: "query",
		steps: []string{
			"CreateQueue", "GetQueueUrl", "ListQueues", "SetQueueAttributes and GetQueueAttributes",
			"TagQueue, UntagQueue and ListQueueTags", "SendMessage and ReceiveMessage", "batches", "FIFO queue",
			"1 MiB messages and batches", "error texts of the query protocol", "AddPermission and RemovePermission",
			"AWSTraceHeader, attribute name wildcards and a queue's name as its URL",
			"ListDeadLetterSourceQueues", "PurgeQueue and DeleteQueue",
		},
	})
}

// runBoto3Pipes runs boto3/pipes.py against the binary that serves SQS
// itself, where a pipe reads its source, and returns one row per step.
func runBoto3Pipes(t *testing.T, emu *emulator) []row {
	return runBoto3(t, emu, boto3Script{
		file: "boto3/pipes.py", sdk: "boto3", prefix: "pipes.", service: "pipes", protocol: "rest-json",
		steps: []string{
			"create_pipe", "describe_pipe", "list_pipes (paginator)", "messages: SQS source, filter, template, SQS target",
			"update_pipe", "stop_pipe / start_pipe", "tag_resource / untag_resource / list_tags_for_resource",
			"errors (ConflictException, ValidationException, NotFoundException)", "delete_pipe",
		},
	})
}

// boto3Script is one script of boto3/ and the rows it proves.
type boto3Script struct {
	file, sdk, prefix string
	// service and protocol: the script's first line says which protocol
	// boto3 speaks for service, which must be protocol.
	service, protocol string
	steps             []string
}

// runBoto3 runs a script with Debian's boto3 against the binary that
// serves SQS itself; each line it prints is a step done or failed.
func runBoto3(t *testing.T, emu *emulator, s boto3Script) []row {
	if !emu.sqsServed {
		var rows []row
		for _, step := range s.steps {
			rows = append(rows, row{SDK: s.sdk, Operation: s.prefix + step, Status: statusNotYet})
		}
		return rows
	}
	requireBoto3(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python3, s.file, emu.sqsAPI)
	cmd.Env = awsEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	t.Logf("python3 %s:\n%s%s", s.file, out, stderr.String())
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
		case line.Op == "version" && line.Protocol != s.protocol:
			t.Errorf("boto3 speaks %s's %q protocol here; this step proves the %s protocol", s.service, line.Protocol, s.protocol)
		case !line.OK:
			t.Errorf("%s%s%s%s: %s", s.sdk, sep, s.prefix, line.Op, line.Error)
		default:
			done[line.Op] = true
		}
	}
	if runErr != nil && !t.Failed() {
		t.Errorf("python3 %s: %v", s.file, runErr)
	}
	var rows []row
	for _, step := range s.steps {
		status := statusFailed
		if done[step] {
			status = statusTested
		}
		rows = append(rows, row{SDK: s.sdk, Operation: s.prefix + step, Status: status})
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
