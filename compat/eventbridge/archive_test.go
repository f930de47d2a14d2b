package eventbridge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ebsdk "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/gridbridge/gridbridge/compat/aws/eventbus"
)

func TestArchiveAndReplay(t *testing.T) {
	h, c := startTest(t)
	busArn := "arn:aws:events:us-east-1:123456789012:event-bus/default"
	arch := must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("all"), EventSourceArn: aws.String(busArn), Description: aws.String("everything"),
	}))
	if arch.State != types.ArchiveStateEnabled || aws.ToString(arch.ArchiveArn) != "arn:aws:events:us-east-1:123456789012:archive/all" {
		t.Fatalf("CreateArchive: %+v", arch)
	}
	must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("big"), EventSourceArn: aws.String(busArn), EventPattern: aws.String(`{"detail":{"big":[true]}}`),
	}))
	_, err := h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{ArchiveName: aws.String("all"), EventSourceArn: aws.String(busArn)})
	apiError(t, err, "ResourceAlreadyExistsException", "Archive all already exists.")
	_, err = h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{ArchiveName: aws.String("x"), EventSourceArn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/nope")})
	apiError(t, err, "ResourceNotFoundException", "Event bus nope does not exist.")

	r1 := putRule(t, h, "r1", "", orderPattern)
	putRule(t, h, "r2", "", orderPattern)
	q2 := "arn:aws:sqs:us-east-1:123456789012:q2"
	putTargets(t, h, "r1", types.Target{Id: aws.String("q"), Arn: aws.String(queueArn)})
	putTargets(t, h, "r2", types.Target{Id: aws.String("q"), Arn: aws.String(q2)})

	first := putEvent(t, h, entry(`{"big":true}`))
	putEvent(t, h, entry(`{"big":false}`))
	h.Clock.Advance(time.Minute)
	putEvent(t, h, entry(`{"late":1}`))
	h.settle()
	h.sqs.Receive(queueArn)
	h.sqs.Receive(q2)

	d := must[*ebsdk.DescribeArchiveOutput](t)(h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("all")}))
	if d.EventCount != 3 || d.SizeBytes == 0 || aws.ToString(d.Description) != "everything" || d.EventPattern != nil {
		t.Fatalf("DescribeArchive all: %+v", d)
	}
	big := must[*ebsdk.DescribeArchiveOutput](t)(h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("big")}))
	if big.EventCount != 1 || aws.ToString(big.EventPattern) == "" {
		t.Fatalf("DescribeArchive big: %+v", big)
	}

	// Replay the first 30 seconds into rule r1 only.
	start := must[*ebsdk.StartReplayOutput](t)(h.client.StartReplay(c, &ebsdk.StartReplayInput{
		ReplayName: aws.String("again"), EventSourceArn: arch.ArchiveArn,
		EventStartTime: aws.Time(t0), EventEndTime: aws.Time(t0.Add(30 * time.Second)),
		Destination: &types.ReplayDestination{Arn: aws.String(busArn), FilterArns: []string{r1}},
	}))
	if start.State != types.ReplayStateStarting || start.ReplayStartTime == nil {
		t.Fatalf("StartReplay: %+v", start)
	}
	h.Clock.Advance(2 * time.Second)
	replayed := h.sqs.Messages(queueArn)
	if len(replayed) != 2 || len(h.sqs.Messages(q2)) != 0 {
		t.Fatalf("replayed %d to r1 and %d to r2; want 2 and 0", len(replayed), len(h.sqs.Messages(q2)))
	}
	// Delivery order is not guaranteed, as on AWS.
	body := string(replayed[0].Body) + string(replayed[1].Body)
	if !strings.Contains(body, `"id":"`+first+`"`) || strings.Count(body, `"region":"us-east-1","replay-name":"again","resources":[]`) != 2 {
		t.Fatalf("replayed events: %s", body)
	}
	desc := must[*ebsdk.DescribeReplayOutput](t)(h.client.DescribeReplay(c, &ebsdk.DescribeReplayInput{ReplayName: aws.String("again")}))
	if desc.State != types.ReplayStateCompleted || desc.ReplayEndTime == nil || !desc.EventLastReplayedTime.Equal(t0) ||
		aws.ToString(desc.Destination.Arn) != busArn {
		t.Fatalf("DescribeReplay: %+v", desc)
	}
	// Replayed events are not archived again.
	d = must[*ebsdk.DescribeArchiveOutput](t)(h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("all")}))
	if d.EventCount != 3 {
		t.Fatalf("archive grew to %d events during the replay", d.EventCount)
	}

	_, err = h.client.CancelReplay(c, &ebsdk.CancelReplayInput{ReplayName: aws.String("again")})
	apiError(t, err, "IllegalStatusException", "Replay again is not in a valid state for this operation.")
	_, err = h.client.StartReplay(c, &ebsdk.StartReplayInput{ReplayName: aws.String("again"), EventSourceArn: arch.ArchiveArn,
		EventStartTime: aws.Time(t0), EventEndTime: aws.Time(t0.Add(time.Hour)), Destination: &types.ReplayDestination{Arn: aws.String(busArn)}})
	apiError(t, err, "ResourceAlreadyExistsException", "Replay again already exists.")

	// A replay cancelled while STARTING sends nothing.
	must[*ebsdk.StartReplayOutput](t)(h.client.StartReplay(c, &ebsdk.StartReplayInput{ReplayName: aws.String("stopped"), EventSourceArn: arch.ArchiveArn,
		EventStartTime: aws.Time(t0), EventEndTime: aws.Time(t0.Add(time.Hour)), Destination: &types.ReplayDestination{Arn: aws.String(busArn)}}))
	cancel := must[*ebsdk.CancelReplayOutput](t)(h.client.CancelReplay(c, &ebsdk.CancelReplayInput{ReplayName: aws.String("stopped")}))
	if cancel.State != types.ReplayStateCancelling {
		t.Fatalf("CancelReplay: %s", cancel.State)
	}
	h.Clock.Advance(2 * time.Second)
	if n := len(h.sqs.Messages(queueArn)); n != 2 {
		t.Fatalf("a cancelled replay delivered: %d messages", n)
	}
	list := must[*ebsdk.ListReplaysOutput](t)(h.client.ListReplays(c, &ebsdk.ListReplaysInput{State: types.ReplayStateCancelled}))
	if len(list.Replays) != 1 || aws.ToString(list.Replays[0].ReplayName) != "stopped" {
		t.Fatalf("ListReplays CANCELLED: %+v", list.Replays)
	}
}

func TestReplayErrorsAndArchiveAPI(t *testing.T) {
	h, c := startTest(t)
	busArn := "arn:aws:events:us-east-1:123456789012:event-bus/default"
	must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("other")}))
	archArn := must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("a"), EventSourceArn: aws.String(busArn), RetentionDays: aws.Int32(1),
	})).ArchiveArn
	start := func(name, archive, dest string, from, to time.Time) error {
		_, err := h.client.StartReplay(c, &ebsdk.StartReplayInput{ReplayName: aws.String(name), EventSourceArn: aws.String(archive),
			EventStartTime: aws.Time(from), EventEndTime: aws.Time(to), Destination: &types.ReplayDestination{Arn: aws.String(dest)}})
		return err
	}
	apiError(t, start("r", "arn:aws:events:us-east-1:123456789012:archive/nope", busArn, t0, t0.Add(time.Hour)),
		"ValidationException", "Parameter EventSourceArn is not valid. Reason: Archive nope does not exist.")
	apiError(t, start("r", *archArn, busArn, t0, t0), "ValidationException",
		"Parameter EventEndTime is not valid. Reason: EventStartTime must be before EventEndTime.")
	apiError(t, start("r", *archArn, "arn:aws:events:us-east-1:123456789012:event-bus/other", t0, t0.Add(time.Hour)),
		"ValidationException", "Parameter Destination.Arn is not valid. Reason: Cross event bus replay is not permitted.")
	apiError(t, start("r", *archArn, "arn:aws:events:us-east-1:123456789012:event-bus/gone", t0, t0.Add(time.Hour)),
		"ResourceNotFoundException", "Event bus gone does not exist.")
	for i := range 10 {
		if err := start(string(rune('a'+i)), *archArn, busArn, t0, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	apiError(t, start("eleventh", *archArn, busArn, t0, t0.Add(time.Hour)), "LimitExceededException", "The requested resource exceeds the maximum number allowed.")
	_, err := h.client.DescribeReplay(c, &ebsdk.DescribeReplayInput{ReplayName: aws.String("nope")})
	apiError(t, err, "ResourceNotFoundException", "Replay nope does not exist.")

	_, err = h.client.UpdateArchive(c, &ebsdk.UpdateArchiveInput{ArchiveName: aws.String("a")})
	apiError(t, err, "ValidationException", "At least one of EventPattern, RetentionDays or Description must be provided.")
	// A missing archive is missing whatever the update gives.
	for _, in := range []*ebsdk.UpdateArchiveInput{
		{ArchiveName: aws.String("nope")}, {ArchiveName: aws.String("nope"), RetentionDays: aws.Int32(7)},
	} {
		_, err = h.client.UpdateArchive(c, in)
		apiError(t, err, "ResourceNotFoundException", "Archive nope does not exist.")
	}
	_, err = h.client.ListArchives(c, &ebsdk.ListArchivesInput{State: types.ArchiveState("ACTIVE")})
	apiError(t, err, "ValidationException", "1 validation error detected: Value 'ACTIVE' at 'state' failed to satisfy constraint: "+
		"Member must satisfy enum value set: [ENABLED, DISABLED, CREATING, UPDATING, CREATE_FAILED, UPDATE_FAILED]")
	_, err = h.client.ListReplays(c, &ebsdk.ListReplaysInput{State: types.ReplayState("DONE")})
	apiError(t, err, "ValidationException", "1 validation error detected: Value 'DONE' at 'state' failed to satisfy constraint: "+
		"Member must satisfy enum value set: [STARTING, RUNNING, CANCELLING, COMPLETED, CANCELLED, FAILED]")
	for _, state := range types.ArchiveState("").Values() {
		must[*ebsdk.ListArchivesOutput](t)(h.client.ListArchives(c, &ebsdk.ListArchivesInput{State: state}))
	}
	for _, state := range types.ReplayState("").Values() {
		must[*ebsdk.ListReplaysOutput](t)(h.client.ListReplays(c, &ebsdk.ListReplaysInput{State: state}))
	}
	must[*ebsdk.UpdateArchiveOutput](t)(h.client.UpdateArchive(c, &ebsdk.UpdateArchiveInput{ArchiveName: aws.String("a"), RetentionDays: aws.Int32(7)}))
	list := must[*ebsdk.ListArchivesOutput](t)(h.client.ListArchives(c, &ebsdk.ListArchivesInput{EventSourceArn: aws.String(busArn)}))
	if len(list.Archives) != 1 || aws.ToInt32(list.Archives[0].RetentionDays) != 7 {
		t.Fatalf("ListArchives: %+v", list.Archives)
	}
	_, err = h.client.ListArchives(c, &ebsdk.ListArchivesInput{EventSourceArn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/gone")})
	apiError(t, err, "ResourceNotFoundException", "Event bus gone does not exist.")
	must[*ebsdk.DeleteArchiveOutput](t)(h.client.DeleteArchive(c, &ebsdk.DeleteArchiveInput{ArchiveName: aws.String("a")}))
	_, err = h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("a")})
	apiError(t, err, "ResourceNotFoundException", "Archive a does not exist.")
}

// TestArchiveRetention forgets events older than RetentionDays on the
// emulator clock.
func TestArchiveRetention(t *testing.T) {
	h, c := startTest(t)
	must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("a"), EventSourceArn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/default"), RetentionDays: aws.Int32(1),
	}))
	putEvent(t, h, entry(`{}`))
	h.Clock.Advance(25 * time.Hour)
	putEvent(t, h, entry(`{}`))
	d := must[*ebsdk.DescribeArchiveOutput](t)(h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("a")}))
	if d.EventCount != 1 {
		t.Fatalf("after a day: %d events archived, want 1", d.EventCount)
	}
}

// TestEveryWayIntoABusIsTheSame: an event enters bus "hub" the same way
// whatever brings it (PutEvents, another service's Inject, a rule forwarding
// it from the default bus): hub's rules meet it and hub's archive keeps it.
// A replay forwarded from the default bus still carries its replay-name, so
// hub's rules meet it but its archive does not keep it again.
func TestEveryWayIntoABusIsTheSame(t *testing.T) {
	h, c := startTest(t)
	defaultArn := "arn:aws:events:us-east-1:123456789012:event-bus/default"
	hubArn := aws.ToString(must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("hub")})).EventBusArn)
	must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{ArchiveName: aws.String("hub-all"), EventSourceArn: aws.String(hubArn)}))
	source := must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{ArchiveName: aws.String("default-all"), EventSourceArn: aws.String(defaultArn)}))
	putRule(t, h, "to-hub", "", orderPattern)
	putTargets(t, h, "to-hub", types.Target{Id: aws.String("hub"), Arn: aws.String(hubArn)})
	putRule(t, h, "on-hub", "hub", orderPattern)
	must[*ebsdk.PutTargetsOutput](t)(h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String("on-hub"), EventBusName: aws.String("hub"),
		Targets: []types.Target{{Id: aws.String("q"), Arn: aws.String(queueArn)}}}))
	hubArchived := func() int64 {
		return must[*ebsdk.DescribeArchiveOutput](t)(h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("hub-all")})).EventCount
	}

	direct := entry(`{"way":"PutEvents"}`)
	direct.EventBusName = aws.String("hub")
	putEvent(t, h, direct)
	putEvent(t, h, entry(`{"way":"forwarded"}`))
	if err := h.svc.Inject(c, hubArn, eventbus.Event{Account: account, Source: "shop.orders", DetailType: "OrderPlaced", Detail: []byte(`{"way":"Inject"}`)}); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if n := hubArchived(); n != 3 {
		t.Fatalf("hub's archive holds %d events, want 3: one for each way in", n)
	}
	if n := len(h.sqs.Messages(queueArn)); n != 3 {
		t.Fatalf("hub's rule delivered %d events, want 3", n)
	}

	must[*ebsdk.StartReplayOutput](t)(h.client.StartReplay(c, &ebsdk.StartReplayInput{
		ReplayName: aws.String("again"), EventSourceArn: source.ArchiveArn,
		EventStartTime: aws.Time(t0), EventEndTime: aws.Time(t0.Add(time.Minute)),
		Destination: &types.ReplayDestination{Arn: aws.String(defaultArn)},
	}))
	h.Clock.Advance(2 * time.Second)
	h.settle()
	msgs := h.sqs.Messages(queueArn)
	if len(msgs) != 4 || !strings.Contains(string(msgs[3].Body), `"replay-name":"again"`) {
		t.Fatalf("after the replay hub's rule delivered %d events (last %s), want a 4th with its replay-name", len(msgs), msgs[len(msgs)-1].Body)
	}
	if n := hubArchived(); n != 3 {
		t.Fatalf("hub's archive grew to %d events: it kept a replay", n)
	}
}

// TestArchiveManagedRule: an archive's events come through its managed rule
// Events-Archive-<name> on the bus, which the rule API shows and refuses to
// change as AWS refuses managed rules; DeleteArchive removes it.
func TestArchiveManagedRule(t *testing.T) {
	h, c := startTest(t)
	busArn := aws.ToString(must[*ebsdk.CreateEventBusOutput](t)(h.client.CreateEventBus(c, &ebsdk.CreateEventBusInput{Name: aws.String("orders")})).EventBusArn)
	archArn := aws.ToString(must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("a"), EventSourceArn: aws.String(busArn), EventPattern: aws.String(`{"source":["shop.orders"]}`),
	})).ArchiveArn)
	const name = "Events-Archive-a"
	ruleArn := "arn:aws:events:us-east-1:123456789012:rule/orders/" + name
	bus := aws.String("orders")

	rules := must[*ebsdk.ListRulesOutput](t)(h.client.ListRules(c, &ebsdk.ListRulesInput{EventBusName: bus})).Rules
	want := types.Rule{
		Name: aws.String(name), Arn: aws.String(ruleArn), EventBusName: bus, State: types.RuleStateEnabled,
		ManagedBy: aws.String("events.amazonaws.com"), EventPattern: aws.String(`{"replay-name":[{"exists":false}],"source":["shop.orders"]}`),
	}
	if len(rules) != 1 || !sameRule(rules[0], want) {
		t.Fatalf("ListRules: %+v", rules)
	}
	d := must[*ebsdk.DescribeRuleOutput](t)(h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String(name), EventBusName: bus}))
	if aws.ToString(d.ManagedBy) != "events.amazonaws.com" || aws.ToString(d.EventPattern) != aws.ToString(want.EventPattern) ||
		aws.ToString(d.Arn) != ruleArn || aws.ToString(d.CreatedBy) != account {
		t.Fatalf("DescribeRule: %+v", d)
	}
	tgs := must[*ebsdk.ListTargetsByRuleOutput](t)(h.client.ListTargetsByRule(c, &ebsdk.ListTargetsByRuleInput{Rule: aws.String(name), EventBusName: bus})).Targets
	if len(tgs) != 1 || aws.ToString(tgs[0].Id) != name || aws.ToString(tgs[0].Arn) != archArn {
		t.Fatalf("ListTargetsByRule: %+v", tgs)
	}
	byTarget := must[*ebsdk.ListRuleNamesByTargetOutput](t)(h.client.ListRuleNamesByTarget(c, &ebsdk.ListRuleNamesByTargetInput{TargetArn: aws.String(archArn), EventBusName: bus}))
	if len(byTarget.RuleNames) != 1 || byTarget.RuleNames[0] != name {
		t.Fatalf("ListRuleNamesByTarget: %v", byTarget.RuleNames)
	}

	// Changes are refused: without Force where Force exists, always where not.
	overridable := name + " is a managed rule. Set 'force' parameter to true to override."
	fixed := name + " is a managed rule and is changed only by events.amazonaws.com."
	_, err := h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String(name), EventBusName: bus})
	apiError(t, err, "ManagedRuleException", overridable)
	_, err = h.client.RemoveTargets(c, &ebsdk.RemoveTargetsInput{Rule: aws.String(name), EventBusName: bus, Ids: []string{name}})
	apiError(t, err, "ManagedRuleException", overridable)
	_, err = h.client.PutRule(c, &ebsdk.PutRuleInput{Name: aws.String(name), EventBusName: bus, EventPattern: aws.String(orderPattern)})
	apiError(t, err, "ManagedRuleException", fixed)
	_, err = h.client.PutTargets(c, &ebsdk.PutTargetsInput{Rule: aws.String(name), EventBusName: bus, Targets: []types.Target{{Id: aws.String("q"), Arn: aws.String(queueArn)}}})
	apiError(t, err, "ManagedRuleException", fixed)
	_, err = h.client.DisableRule(c, &ebsdk.DisableRuleInput{Name: aws.String(name), EventBusName: bus})
	apiError(t, err, "ManagedRuleException", fixed)
	_, err = h.client.TagResource(c, &ebsdk.TagResourceInput{ResourceARN: aws.String(ruleArn), Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
	apiError(t, err, "ManagedRuleException", fixed)
	_, err = h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: bus})
	apiError(t, err, "ValidationException", "EventBus can't be deleted since it has rules.")

	// The archive keeps what its rule matches; UpdateArchive changes both.
	onBus := func(detailType string) types.PutEventsRequestEntry {
		e := entry(`{}`)
		e.EventBusName, e.DetailType = bus, aws.String(detailType)
		return e
	}
	archived := func(archive string) int64 {
		return must[*ebsdk.DescribeArchiveOutput](t)(h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String(archive)})).EventCount
	}
	putEvent(t, h, onBus("OrderPlaced"))
	must[*ebsdk.UpdateArchiveOutput](t)(h.client.UpdateArchive(c, &ebsdk.UpdateArchiveInput{ArchiveName: aws.String("a"), EventPattern: aws.String(`{"detail-type":["OrderShipped"]}`)}))
	d = must[*ebsdk.DescribeRuleOutput](t)(h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String(name), EventBusName: bus}))
	if aws.ToString(d.EventPattern) != `{"detail-type":["OrderShipped"],"replay-name":[{"exists":false}]}` {
		t.Fatalf("rule pattern after UpdateArchive: %s", aws.ToString(d.EventPattern))
	}
	putEvent(t, h, onBus("OrderPlaced"))
	putEvent(t, h, onBus("OrderShipped"))
	if n := archived("a"); n != 2 {
		t.Fatalf("archive a holds %d events, want 2", n)
	}

	// DeleteArchive removes its rule; the bus can go then.
	must[*ebsdk.DeleteArchiveOutput](t)(h.client.DeleteArchive(c, &ebsdk.DeleteArchiveInput{ArchiveName: aws.String("a")}))
	if left := must[*ebsdk.ListRulesOutput](t)(h.client.ListRules(c, &ebsdk.ListRulesInput{EventBusName: bus})).Rules; len(left) != 0 {
		t.Fatalf("rules left after DeleteArchive: %+v", left)
	}
	must[*ebsdk.DeleteEventBusOutput](t)(h.client.DeleteEventBus(c, &ebsdk.DeleteEventBusInput{Name: bus}))

	// With Force the rule's target and then the rule go, and the archive,
	// fed by nothing, keeps no more events.
	must[*ebsdk.CreateArchiveOutput](t)(h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("b"), EventSourceArn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/default"),
	}))
	d = must[*ebsdk.DescribeRuleOutput](t)(h.client.DescribeRule(c, &ebsdk.DescribeRuleInput{Name: aws.String("Events-Archive-b")}))
	if aws.ToString(d.EventPattern) != `{"replay-name":[{"exists":false}]}` {
		t.Fatalf("the rule of an archive without a pattern: %s", aws.ToString(d.EventPattern))
	}
	putEvent(t, h, entry(`{}`))
	_, err = h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("Events-Archive-b"), Force: true})
	apiError(t, err, "ValidationException", "Rule can't be deleted since it has targets.")
	removed := must[*ebsdk.RemoveTargetsOutput](t)(h.client.RemoveTargets(c, &ebsdk.RemoveTargetsInput{Rule: aws.String("Events-Archive-b"), Ids: []string{"Events-Archive-b"}, Force: true}))
	if removed.FailedEntryCount != 0 {
		t.Fatalf("RemoveTargets with Force: %+v", removed.FailedEntries)
	}
	putEvent(t, h, entry(`{}`))
	must[*ebsdk.DeleteRuleOutput](t)(h.client.DeleteRule(c, &ebsdk.DeleteRuleInput{Name: aws.String("Events-Archive-b"), Force: true}))
	putEvent(t, h, entry(`{}`))
	if n := archived("b"); n != 1 {
		t.Fatalf("archive b holds %d events, want the 1 its rule sent it", n)
	}
	must[*ebsdk.DeleteArchiveOutput](t)(h.client.DeleteArchive(c, &ebsdk.DeleteArchiveInput{ArchiveName: aws.String("b")}))

	// A rule of the caller's that holds the name keeps the archive from
	// being created.
	putRule(t, h, "Events-Archive-c", "", orderPattern)
	_, err = h.client.CreateArchive(c, &ebsdk.CreateArchiveInput{
		ArchiveName: aws.String("c"), EventSourceArn: aws.String("arn:aws:events:us-east-1:123456789012:event-bus/default"),
	})
	apiError(t, err, "ResourceAlreadyExistsException", "Rule Events-Archive-c already exists on EventBus default.")
	_, err = h.client.DescribeArchive(c, &ebsdk.DescribeArchiveInput{ArchiveName: aws.String("c")})
	apiError(t, err, "ResourceNotFoundException", "Archive c does not exist.")
}

func sameRule(a, b types.Rule) bool {
	return aws.ToString(a.Name) == aws.ToString(b.Name) && aws.ToString(a.Arn) == aws.ToString(b.Arn) &&
		aws.ToString(a.EventBusName) == aws.ToString(b.EventBusName) && a.State == b.State &&
		aws.ToString(a.ManagedBy) == aws.ToString(b.ManagedBy) && aws.ToString(a.EventPattern) == aws.ToString(b.EventPattern) &&
		a.Description == nil && a.ScheduleExpression == nil && a.RoleArn == nil
}
