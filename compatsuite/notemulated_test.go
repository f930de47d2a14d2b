package compatsuite

import (
	"strings"
	"testing"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/internal/testenv"
)

// The AWS CLI (botocore) reads GridBridge's answer to a service it does not
// emulate, in each service's protocol, as an error naming the service: no
// retries, no parse failure, no empty message.
func TestAWSCLISaysWhatIsNotEmulated(t *testing.T) {
	t.Parallel()
	proc := testbinary.Start(t, "--clock", "virtual")
	c := &cli{bin: testenv.AWSCLI(t), env: awsEnv(t), emu: &emulator{http: proc.Endpoints["http"]}}
	for _, call := range []struct {
		args []string
		says string
	}{
		{[]string{"sts", "get-caller-identity"}, "calling the GetCallerIdentity operation: GridBridge does not emulate AWS STS (sts)"},
		{[]string{"iam", "list-roles"}, "calling the ListRoles operation: GridBridge does not emulate AWS IAM (iam)"},
		{[]string{"lambda", "list-functions"}, "calling the ListFunctions operation: GridBridge does not emulate AWS Lambda (lambda)"},
		{[]string{"sns", "list-topics"}, "calling the ListTopics operation: GridBridge does not emulate Amazon SNS (sns)"},
	} {
		_, stderr, err := c.run(t, call.args...)
		if err == nil {
			t.Errorf("aws %s succeeded", strings.Join(call.args, " "))
			continue
		}
		msg := string(stderr)
		if !strings.Contains(msg, "(NotImplemented)") || !strings.Contains(msg, call.says) || !strings.Contains(msg, "it emulates EventBridge") {
			t.Errorf("aws %s: %s\nwant (NotImplemented) and %q", strings.Join(call.args, " "), msg, call.says)
		}
	}
}
