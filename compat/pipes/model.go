package pipes

import (
	"strings"
	"sync"
	"time"
)

// The states of the model's PipeState. A pipe passes through CREATING,
// UPDATING, STARTING and STOPPING at once on GridBridge (the answer of the
// call that starts it names it, as AWS's does); it rests in RUNNING,
// STOPPED or one of the *_FAILED states, whose StateReason says why.
const (
	stateRunning      = "RUNNING"
	stateStopped      = "STOPPED"
	stateCreating     = "CREATING"
	stateUpdating     = "UPDATING"
	stateDeleting     = "DELETING"
	stateStarting     = "STARTING"
	stateStopping     = "STOPPING"
	stateCreateFailed = "CREATE_FAILED"
	stateUpdateFailed = "UPDATE_FAILED"
	stateStartFailed  = "START_FAILED"
	stateStopFailed   = "STOP_FAILED"
	stateDeleteFailed = "DELETE_FAILED"
	// desiredDeleted is DeletePipe's DesiredState.
	desiredDeleted = "DELETED"
)

// pipeStates is the PipeState enum, in the model's order.
var pipeStates = []string{
	stateRunning, stateStopped, stateCreating, stateUpdating, stateDeleting, stateStarting, stateStopping,
	stateCreateFailed, stateUpdateFailed, stateStartFailed, stateStopFailed, stateDeleteFailed,
	"CREATE_ROLLBACK_FAILED", "DELETE_ROLLBACK_FAILED", "UPDATE_ROLLBACK_FAILED",
}

type tenantKey struct{ account, region string }

func pipeArn(k tenantKey, name string) string {
	return "arn:aws:pipes:" + k.region + ":" + k.account + ":pipe/" + name
}

// parsePipeArn reads arn:aws:pipes:<region>:<account>:pipe/<name>.
func parsePipeArn(a string) (tenantKey, string, bool) {
	parts := strings.SplitN(a, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] != "pipes" {
		return tenantKey{}, "", false
	}
	name, ok := strings.CutPrefix(parts[5], "pipe/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return tenantKey{}, "", false
	}
	return tenantKey{account: parts[4], region: parts[3]}, name, true
}

// pipe is one pipe. The Service's lock guards everything but stats and
// run, which have their own.
type pipe struct {
	name, arn string
	key       tenantKey
	set       settings
	desired   string
	current   string
	reason    string
	created   time.Time
	modified  time.Time
	tags      map[string]string
	// routeID names the pipe in the journal and in fault rules; a pipe
	// created again under its name gets a new one.
	routeID string
	stats   *stats
	// run reads the source while the pipe is RUNNING; nil otherwise.
	run *runner
}

func (p *pipe) labels(step string) map[string]string {
	l := map[string]string{"cloud": "pipes", "pipe": p.name}
	if step != "" {
		l["step"] = step
	}
	return l
}

func (p *pipe) stateOutput() stateOutput {
	return p.stateOutputAs(p.desired, p.current)
}

func (p *pipe) stateOutputAs(desired, current string) stateOutput {
	return stateOutput{
		Arn: p.arn, Name: p.name, DesiredState: desired, CurrentState: current,
		CreationTime: ts(p.created), LastModifiedTime: ts(p.modified),
	}
}

// stats are a pipe's counters (metrics.go), kept while the pipe exists,
// across stops, starts and updates.
type stats struct {
	mu sync.Mutex
	c  counters
	// awaiting are the messages this pipe failed to process and left in
	// its source, where they wait out their visibility timeout: received
	// again, redriven to the queue's dead-letter queue, or gone.
	awaiting map[string]struct{}
}

func newStats() *stats { return &stats{awaiting: map[string]struct{}{}} }
