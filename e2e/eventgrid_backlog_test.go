package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/azeventgrid"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"

	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// The backlog reproduction: the built binary with its default flags (jitter
// and probation on), a webhook that answers 500 to every notification, a
// dead-letter container, 10,000 events published in batches of 100, then
// 48 cloud hours in 1-hour steps. Every event must end — dead-lettered,
// since the default TTL is 24 h (EG-12..EG-14) — however delayed delivery
// and probation held the subscription (EG-17, EG-18).
//
// With the defaults every event ends within its TTL plus one retry interval
// (24 h + 12 h); without probation the schedule's jitter
// (EG-9) may add up to 5 % to each of the ten waits, so the bound is 48 h.
func TestBacklogOnAFailingWebhookEndsWithDefaultFlags(t *testing.T) {
	t.Parallel()
	backlogEndsWithin(t, 36, "--clock", "virtual")
}

func TestBacklogOnAFailingWebhookEndsWithoutProbation(t *testing.T) {
	t.Parallel()
	backlogEndsWithin(t, 48, "--clock", "virtual", "--no-probation")
}

const backlogEvents = 10_000

func backlogEndsWithin(t *testing.T, hours int, args ...string) {
	proc := testbinary.Start(t, args...)
	emu := testkit.Connect(t, proc.Endpoints["http"], testkit.AsConfigured())
	startBacklog(t, emu, failingEndpoint(t), backlogEvents)
	start := emu.Now()
	var m testkit.RouteMetrics
	for h := 1; h <= hours; h++ {
		emu.Advance(time.Hour)
		m = emu.RouteMetrics(testkit.Filter{Topic: "orders", Subscription: "audit"})
		accounted(t, fmt.Sprintf("after %d h", h), m)
		if m.DeadLettered+m.Dropped == backlogEvents {
			t.Logf("every event ended by %d h of cloud time (%d attempts)", h, m.Attempts)
			break
		}
	}
	if m.DeadLettered != backlogEvents {
		t.Fatalf("after %s: %d dead-lettered, %d dropped, %d pending, %d retrying, %d awaiting dead letter; want all %d dead-lettered",
			emu.Now().Sub(start), m.DeadLettered, m.Dropped, m.Pending, m.Retrying, m.AwaitingDeadLetter, backlogEvents)
	}
}

// startBacklog creates topic "orders" with subscription "audit" to url,
// dead-lettering to the development storage account, and publishes n events
// in batches of 100.
func startBacklog(t testing.TB, emu *testkit.Emulator, url string, n int) {
	emu.CreateTopic("orders", &armeventgrid.TopicProperties{InputSchema: to.Ptr(armeventgrid.InputSchemaEventGridSchema)})
	emu.CreateEventSubscription("orders", "audit", armeventgrid.EventSubscriptionProperties{
		Destination: testkit.WebHookDestination(url),
		DeadLetterDestination: &armeventgrid.StorageBlobDeadLetterDestination{
			EndpointType: to.Ptr(armeventgrid.DeadLetterEndPointTypeStorageBlob),
			Properties: &armeventgrid.StorageBlobDeadLetterDestinationProperties{
				ResourceID: to.Ptr(testkit.StorageAccountID("devstoreaccount1")), BlobContainerName: to.Ptr("dead"),
			},
		},
	})
	publisher := emu.EventGridPublisher("orders")
	data := map[string]any{"order": "a modest order of about three hundred bytes", "lines": []int{1, 2, 3, 4, 5, 6, 7, 8}}
	for sent := 0; sent < n; {
		batch := make([]azeventgrid.Event, 0, 100)
		for ; len(batch) < 100 && sent < n; sent++ {
			id := fmt.Sprintf("order-%05d", sent)
			batch = append(batch, azeventgrid.Event{ID: to.Ptr(id), EventType: to.Ptr("Orders.Placed"), Subject: to.Ptr("orders/" + id),
				DataVersion: to.Ptr("1.0"), EventTime: to.Ptr(emu.Now()), Data: data})
		}
		if _, err := publisher.PublishEvents(context.Background(), batch, nil); err != nil {
			t.Fatalf("publishing: %v", err)
		}
	}
}

// failingEndpoint is a webhook that passes Event Grid's validation handshake
// and answers 500 to every notification. Unlike fakes.Webhook it keeps no
// record of what it received: a backlog run sends it over 100,000 requests.
func failingEndpoint(t testing.TB) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.EqualFold(r.Header.Get("aeg-event-type"), "SubscriptionValidation") {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		var events []struct {
			Data struct {
				ValidationCode string `json:"validationCode"`
			} `json:"data"`
		}
		if json.Unmarshal(body, &events) != nil || len(events) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"validationResponse": events[0].Data.ValidationCode})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/webhook"
}

// BenchmarkBacklogRSSAfter12h is the reproduction's memory: the binary's
// resident memory idle, then after 10,000 events on the always-500 webhook
// have been retried for 12 cloud hours, per event still pending (the target:
// ≤ 2 KiB, and the whole process under ~100 MB).
func BenchmarkBacklogRSSAfter12h(b *testing.B) {
	for _, flags := range [][]string{{"--clock", "virtual"}, {"--clock", "virtual", "--no-probation"}} {
		b.Run(map[bool]string{true: "default-flags", false: "no-probation"}[len(flags) == 2], func(b *testing.B) {
			var idle, loaded, afterReset, cpu float64
			var pending int
			for b.Loop() {
				proc := testbinary.Start(b, flags...)
				emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
				emu.Settle()
				idle = residentMB(b, proc)
				startBacklog(b, emu, failingEndpoint(b), backlogEvents)
				for h := 0; h < 12; h++ {
					emu.Advance(time.Hour)
				}
				m := emu.RouteMetrics(testkit.Filter{Topic: "orders", Subscription: "audit"})
				pending = m.Pending + m.Retrying + m.InFlight + m.AwaitingDeadLetter
				loaded = residentMB(b, proc)
				cpu = cpuSeconds(b, proc)
				// A reset gives the memory back.
				if err := emu.Inspector().Reset(context.Background()); err != nil {
					b.Fatal(err)
				}
				afterReset = residentMB(b, proc)
			}
			b.ReportMetric(idle, "idle-RSS-MB")
			b.ReportMetric(loaded, "RSS-MB")
			b.ReportMetric(afterReset, "after-reset-RSS-MB")
			b.ReportMetric(float64(pending), "pending")
			b.ReportMetric(cpu, "emulator-CPU-s")
			b.ReportMetric((loaded-idle)*1024/float64(max(pending, 1)), "KiB/pending-event")
		})
	}
}

// BenchmarkPendingRSS100k: 100,000 events held pending (delayed delivery
// holds the failing subscription after its first events fail; default
// flags), the binary's resident memory per pending event beside its idle
// size (the target: ≤ 150 MB in all).
func BenchmarkPendingRSS100k(b *testing.B) {
	const events = 100_000
	var idle, loaded float64
	var pending int
	for b.Loop() {
		proc := testbinary.Start(b, "--clock", "virtual")
		emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
		emu.Settle()
		idle = residentMB(b, proc)
		startBacklog(b, emu, failingEndpoint(b), events)
		emu.Settle()
		m := emu.RouteMetrics(testkit.Filter{Topic: "orders", Subscription: "audit"})
		pending = m.Pending + m.Retrying
		if pending < events*9/10 {
			b.Fatalf("only %d of %d events pending: %+v", pending, events, m)
		}
		loaded = residentMB(b, proc)
	}
	b.ReportMetric(idle, "idle-RSS-MB")
	b.ReportMetric(loaded, "RSS-MB")
	b.ReportMetric((loaded-idle)*1024/float64(pending), "KiB/pending-event")
}

// cpuSeconds is the CPU time the process has used (user and system), so a
// memory setting's cost in collection work shows beside what it saves.
func cpuSeconds(b testing.TB, proc *testbinary.Process) float64 {
	return cpuSecondsOf(b, proc.Cmd.Process.Pid)
}

// cpuSecondsOf is cpuSeconds of the process pid.
func cpuSecondsOf(b testing.TB, pid int) float64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		b.Fatalf("reading the emulator's CPU time: %v", err)
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: utime and stime are the 12th and 13th, in clock ticks
	// (100 a second on Linux).
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 13 {
		b.Fatalf("unexpected /proc stat: %q", data)
	}
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100
}

// residentMB is the process's resident memory (VmRSS) in MiB.
func residentMB(b testing.TB, proc *testbinary.Process) float64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(proc.Cmd.Process.Pid), "status"))
	if err != nil {
		b.Fatalf("reading the emulator's memory: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS in /proc status")
	return 0
}

// accounted fails the test when m's counters do not add up.
func accounted(t testing.TB, when string, m testkit.RouteMetrics) {
	t.Helper()
	if err := m.Accounted(); err != nil {
		t.Fatalf("%s: %v", when, err)
	}
}
