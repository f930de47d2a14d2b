package modeltest_test

import (
	"testing"

	"github.com/gridbridge/gridbridge/compat/aws/awsmodel"
	"github.com/gridbridge/gridbridge/compat/aws/awsmodel/modeltest"
)

// TestCasesBreakOneConstraint checks the generator against the checker:
// each case's request breaks the constraint it names, and that one only
// among the members it sends (labels and query aside).
func TestCasesBreakOneConstraint(t *testing.T) {
	t.Parallel()
	for _, svc := range []*awsmodel.Service{awsmodel.EventBridge(), awsmodel.Scheduler(), awsmodel.SQS(), awsmodel.Pipes()} {
		cases, skipped := modeltest.Cases(svc, awsmodel.Wording{})
		made, left := modeltest.Counts(cases, skipped)
		t.Logf("%s: %s constraints with a case, %s left out", svc.Name, made, left)
		for _, s := range skipped {
			t.Logf("%s left out %s %s %s: %s", svc.Name, s.Op, s.Path, s.Kind, s.Reason)
		}
		checker := awsmodel.NewChecker(svc, awsmodel.Wording{})
		for _, c := range cases {
			in := modeltest.Input(c)
			vs := checker.Check(c.Op, in)
			if !modeltest.Names(vs, c.Want) {
				t.Errorf("%s %s: the checker found %v", svc.Name, c.Name(), vs)
			}
			if len(vs) != 1 {
				t.Logf("%s %s: %d violations: %s", svc.Name, c.Name(), len(vs), awsmodel.Message(vs))
			}
		}
	}
}
