package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/messaging"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/eventgrid/aznamespaces"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/eventgrid/armeventgrid/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/gridbridge/gridbridge/internal/facetest"
	"github.com/gridbridge/gridbridge/internal/testbinary"
	"github.com/gridbridge/gridbridge/testkit"
)

// The CPU an event costs the emulator binary on the paths users run, beside
// the transport floor of the same run. Run them with
//
//	go test ./e2e -run '^$' -bench CPUPerEvent -benchtime 20000x -cpu 2
//
// Each path runs against a fresh binary (default flags: the real clock) and
// reports emulator-CPU-µs/event: the user and system time of the emulator
// process (from /proc) over the run, divided by the events. Then a bare
// net/http server in a process of its own answers as many requests as the
// emulator served or made in that run (1.5 KB POST, 200-byte answer,
// keep-alive, 8 clients), and floor-CPU-µs/event is its CPU time divided by
// the same number of events; ratio is the one over the other. With
// `perf stat` instruction counts (where the machine supports them) both
// report instructions/event too. b.N is the number of events.
// GRIDBRIDGE_TEST_BINARY=/path/to/emulator runs a prebuilt binary instead
// of building this tree's, so two builds can be measured in turn:
//
//	go build -o /tmp/before ./cmd/emulator   # at the older commit
//	GRIDBRIDGE_TEST_BINARY=/tmp/before go test ./e2e -run '^$' -bench CPUPerEvent ...

// bareServerEnv, set in a child of the test binary, makes TestMain serve the
// bare baseline instead of running tests: "http" plain, "https" over TLS
// (a P-256 certificate, as the emulator's own).
const bareServerEnv = "GRIDBRIDGE_BENCH_BARE_SERVER"

func TestMain(m *testing.M) {
	if scheme := os.Getenv(bareServerEnv); scheme != "" {
		serveBare(scheme == "https")
		return
	}
	os.Exit(m.Run())
}

// serveBare is the floor: a net/http server that reads the request and
// answers 200 bytes, printing its address on stdout and serving until it
// is killed.
func serveBare(overTLS bool) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	answer := bytes.Repeat([]byte("x"), 200)
	fmt.Println(ln.Addr().String())
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	if !overTLS {
		_ = http.Serve(ln, handler)
		return
	}
	cert, err := selfSigned()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: handler, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	_ = srv.ServeTLS(ln, "", "")
}

// selfSigned is a P-256 certificate for 127.0.0.1, the key type the
// emulator's own TLS endpoint serves.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// bareServer is the floor's process.
type bareServer struct {
	cmd    *exec.Cmd
	url    string
	client *http.Client
}

func startBare(b *testing.B) *bareServer { return startBareScheme(b, "http") }

func startBareScheme(b *testing.B, scheme string) *bareServer {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), bareServerEnv+"="+scheme)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("the bare server printed no address: %v", err)
	}
	transport := &http.Transport{MaxIdleConnsPerHost: 8}
	if scheme == "https" {
		transport.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the floor's own throwaway certificate
		transport.ForceAttemptHTTP2 = false
	}
	return &bareServer{cmd: cmd, url: scheme + "://" + strings.TrimSpace(line) + "/", client: &http.Client{Transport: transport}}
}

// drive sends requests 1.5 KB POSTs from 8 keep-alive clients.
func (s *bareServer) drive(b *testing.B, requests int64) {
	body := bytes.Repeat([]byte("y"), 1536)
	client := s.client
	defer client.CloseIdleConnections()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= requests {
				resp, err := client.Post(s.url, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

// profileEnv names a directory: set, each measured phase (b.N > 1) also
// records a CPU profile of the measured process there with
// `perf record -e cpu-clock -g`, one file a benchmark and process, for
// `perf report -i`.
const profileEnv = "GRIDBRIDGE_BENCH_PROFILE"

// meter reads a process's CPU time and, where perf supports it, counts its
// instructions over one phase.
type meter struct {
	b      *testing.B
	pid    int
	cpu0   float64
	perf   *exec.Cmd
	out    *bytes.Buffer
	record *exec.Cmd
}

func startMeter(b *testing.B, pid int) *meter {
	m := &meter{b: b, pid: pid, cpu0: cpuSecondsOf(b, pid)}
	if dir := os.Getenv(profileEnv); dir != "" && b.N > 1 {
		file := filepath.Join(dir, strings.NewReplacer("/", "-").Replace(b.Name())+"-"+strconv.Itoa(pid)+".perf.data")
		m.record = exec.Command("perf", "record", "-q", "-e", "cpu-clock", "-F", "2000", "-g", "-p", strconv.Itoa(pid), "-o", file)
		if m.record.Start() != nil {
			b.Logf("%s: perf record did not start", profileEnv)
			m.record = nil
		}
	}
	if path, ok := perfCountsInstructions(); ok {
		m.out = &bytes.Buffer{}
		m.perf = exec.Command(path, "stat", "-x", ",", "-e", "instructions", "-p", strconv.Itoa(pid))
		m.perf.Stderr = m.out
		if m.perf.Start() != nil {
			m.perf = nil
		} else {
			time.Sleep(50 * time.Millisecond) // perf attaches before the phase starts
		}
	}
	return m
}

// perfCountsInstructions returns perf's path when it counts instructions
// on this machine (many virtual machines expose no hardware counters).
func perfCountsInstructions() (string, bool) {
	path, err := exec.LookPath("perf")
	if err != nil {
		return "", false
	}
	out, err := exec.Command(path, "stat", "-x", ",", "-e", "instructions", "--", "true").CombinedOutput()
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ","); len(f) > 2 && strings.HasPrefix(f[2], "instructions") {
			n, err := strconv.ParseFloat(f[0], 64)
			return path, err == nil && n > 0
		}
	}
	return "", false
}

// stop returns the CPU seconds and instructions (0 when not counted) the
// process used since startMeter.
func (m *meter) stop() (cpu, instructions float64) {
	cpu = cpuSecondsOf(m.b, m.pid) - m.cpu0
	if m.record != nil {
		_ = m.record.Process.Signal(syscall.SIGINT)
		_ = m.record.Wait()
	}
	if m.perf != nil {
		_ = m.perf.Process.Signal(syscall.SIGINT)
		_ = m.perf.Wait()
		for _, line := range strings.Split(m.out.String(), "\n") {
			f := strings.Split(line, ",")
			if len(f) > 2 && strings.HasPrefix(f[2], "instructions") {
				instructions, _ = strconv.ParseFloat(f[0], 64)
			}
		}
	}
	return cpu, instructions
}

// reportCPU runs the floor for requests and reports both CPU figures per
// event, their ratio, and instructions where perf counts them.
func reportCPU(b *testing.B, events float64, emuCPU, emuInstr float64, requests int64) {
	b.StopTimer()
	bare := startBare(b)
	m := startMeter(b, bare.cmd.Process.Pid)
	bare.drive(b, requests)
	floorCPU, floorInstr := m.stop()
	b.ReportMetric(emuCPU*1e6/events, "emulator-CPU-µs/event")
	b.ReportMetric(floorCPU*1e6/events, "floor-CPU-µs/event")
	b.ReportMetric(emuCPU/floorCPU, "ratio")
	b.ReportMetric(float64(requests)/events, "requests/event")
	if emuInstr > 0 && floorInstr > 0 {
		b.ReportMetric(emuInstr/events, "emulator-instructions/event")
		b.ReportMetric(floorInstr/events, "floor-instructions/event")
	}
}

// reportTLSFloor runs the floor again over TLS (keep-alive, so one
// handshake a connection) for paths the SDKs drive over HTTPS, and reports
// its CPU per event and the emulator's ratio to it.
func reportTLSFloor(b *testing.B, events float64, emuCPU float64, requests int64) {
	b.StopTimer()
	bare := startBareScheme(b, "https")
	m := startMeter(b, bare.cmd.Process.Pid)
	bare.drive(b, requests)
	floorCPU, _ := m.stop()
	b.ReportMetric(floorCPU*1e6/events, "tls-floor-CPU-µs/event")
	b.ReportMetric(emuCPU/floorCPU, "tls-ratio")
}

func BenchmarkCPUPerEvent(b *testing.B) {
	b.Run("eventbridge-sqs", benchCPUEventBridgeToSQS)
	b.Run("sqs", benchCPUSQS)
	b.Run("eventgrid-webhook-batch1", benchCPUEventGridWebhook)
	b.Run("namespace-receive-ack", benchCPUNamespace)
}

// eventbridge-sqs: PutEvents (10 entries a call, 8 senders) → rule → the
// binary's own queue → 4 consumers doing ReceiveMessage(10) and
// DeleteMessageBatch.
func benchCPUEventBridgeToSQS(b *testing.B) {
	proc := testbinary.Start(b)
	emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
	ctx := context.Background()
	client, eb := emu.SQS(), emu.EventBridge()
	url := createBenchQueue(b, client, "via-rule")
	if _, err := eb.PutRule(ctx, &eventbridge.PutRuleInput{Name: aws.String("bench"),
		EventPattern: aws.String(`{"source":["bench"],"detail":{"order":{"total":[{"numeric":[">",0]}]}}}`)}); err != nil {
		b.Fatal(err)
	}
	if _, err := eb.PutTargets(ctx, &eventbridge.PutTargetsInput{Rule: aws.String("bench"), Targets: []ebtypes.Target{
		{Id: aws.String("q"), Arn: aws.String("arn:aws:sqs:" + testkit.AWSRegion + ":" + testkit.AWSAccount + ":via-rule")},
	}}); err != nil {
		b.Fatal(err)
	}
	entries := make([]ebtypes.PutEventsRequestEntry, 10)
	for i := range entries {
		entries[i] = ebtypes.PutEventsRequestEntry{Source: aws.String("bench"), DetailType: aws.String("Tick"), Detail: aws.String(`{"order":{"id":"o-1","total":12.5}}`)}
	}
	events := float64((b.N + 9) / 10 * 10)
	b.ResetTimer()
	m := startMeter(b, proc.Cmd.Process.Pid)
	_, requests := countedPipeline(b, client, url, b.N, func() error {
		out, err := eb.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: entries})
		if err == nil && out.FailedEntryCount > 0 {
			err = fmt.Errorf("%d entries failed", out.FailedEntryCount)
		}
		return err
	})
	cpu, instr := m.stop()
	reportCPU(b, events, cpu, instr, requests)
}

// sqs: SendMessageBatch (10 entries, 8 senders) → 4 consumers doing
// ReceiveMessage(10) and DeleteMessageBatch.
func benchCPUSQS(b *testing.B) {
	proc := testbinary.Start(b)
	emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
	ctx := context.Background()
	client := emu.SQS()
	url := createBenchQueue(b, client, "direct")
	batch := make([]sqstypes.SendMessageBatchRequestEntry, 10)
	for i := range batch {
		batch[i] = sqstypes.SendMessageBatchRequestEntry{Id: aws.String(fmt.Sprint("m", i)), MessageBody: aws.String(`{"order":{"id":"o-1","total":12.5}}`)}
	}
	events := float64((b.N + 9) / 10 * 10)
	b.ResetTimer()
	m := startMeter(b, proc.Cmd.Process.Pid)
	_, requests := countedPipeline(b, client, url, b.N, func() error {
		out, err := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(url), Entries: batch})
		if err == nil && len(out.Failed) > 0 {
			err = fmt.Errorf("%d entries failed", len(out.Failed))
		}
		return err
	})
	cpu, instr := m.stop()
	reportCPU(b, events, cpu, instr, requests)
}

// eventgrid-webhook-batch1: a topic published to with 10 events a request
// from 8 clients, one webhook subscription at maxEventsPerBatch 1 (Azure's
// default): one delivery POST per event. The requests counted are the
// publishes and the deliveries.
func benchCPUEventGridWebhook(b *testing.B) {
	const perPublish = 10
	proc := testbinary.Start(b)
	emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
	publishes := (b.N + perPublish - 1) / perPublish
	total := int64(publishes * perPublish)
	hook := newBenchWebhook(b, false)
	hook.done, hook.want = make(chan struct{}), total
	topic := newBenchTopic(b, emu, hook.srv.URL, 1)
	topic.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	bodies := make([][]byte, publishes)
	for i := range bodies {
		bodies[i] = benchEvents(i*perPublish, perPublish)
	}
	b.ResetTimer()
	m := startMeter(b, proc.Cmd.Process.Pid)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(publishes); i = next.Add(1) {
				topic.publish(b, bodies[i-1])
			}
		}()
	}
	wg.Wait()
	select {
	case <-hook.done:
	case <-time.After(5 * time.Minute):
		b.Fatalf("the webhook got %d of %d events", hook.events.Load(), total)
	}
	cpu, instr := m.stop()
	reportCPU(b, float64(total), cpu, instr, int64(publishes)+total)
}

// namespace-receive-ack: a namespace topic published to with 10 CloudEvents
// a request from 8 senders (aznamespaces), one queue subscription read by 4
// receivers doing ReceiveEvents(10) and AcknowledgeEvents, over the
// namespace's HTTPS endpoint: the floor is reported plain and over TLS.
func benchCPUNamespace(b *testing.B) {
	const perPublish = 10
	proc := testbinary.Start(b)
	emu := testkit.Connect(b, proc.Endpoints["http"], testkit.AsConfigured())
	arm := emu.ARM()
	facetest.CreateNamespaceTopic(b, arm, testkit.ResourceGroup, "bench", "orders")
	poller, err := arm.NewNamespaceTopicEventSubscriptionsClient().BeginCreateOrUpdate(context.Background(), testkit.ResourceGroup, "bench", "orders", "billing",
		armeventgrid.Subscription{Properties: &armeventgrid.SubscriptionProperties{
			DeliveryConfiguration: &armeventgrid.DeliveryConfiguration{
				DeliveryMode: to.Ptr(armeventgrid.DeliveryModeQueue),
				Queue:        &armeventgrid.QueueInfo{ReceiveLockDurationInSeconds: to.Ptr[int32](60), MaxDeliveryCount: to.Ptr[int32](5)},
			},
		}}, nil)
	facetest.Await(b, "creating subscription billing", poller, err)
	sender := emu.NamespaceSender("bench", "orders")
	receiver := emu.NamespaceReceiver("bench", "orders", "billing")
	publishes := (b.N + perPublish - 1) / perPublish
	total := int64(publishes * perPublish)
	batch := make([]*messaging.CloudEvent, perPublish)
	for i := range batch {
		ev, err := messaging.NewCloudEvent("/shop", "Order.Placed", map[string]any{"orderId": i, "total": 42.5, "currency": "EUR"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		batch[i] = &ev
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b.ResetTimer()
	m := startMeter(b, proc.Cmd.Process.Pid)
	var next, acked, requests atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(publishes) {
				requests.Add(1)
				if _, err := sender.SendEvents(ctx, batch, nil); err != nil {
					b.Error(err)
					cancel()
					return
				}
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for acked.Load() < total && ctx.Err() == nil {
				requests.Add(1)
				got, err := receiver.ReceiveEvents(ctx, &aznamespaces.ReceiveEventsOptions{MaxEvents: to.Ptr[int32](10), MaxWaitTime: to.Ptr[int32](10)})
				if err != nil {
					if ctx.Err() == nil {
						b.Error(err)
					}
					return
				}
				if len(got.Details) == 0 {
					continue
				}
				tokens := make([]string, len(got.Details))
				for i, d := range got.Details {
					tokens[i] = *d.BrokerProperties.LockToken
				}
				requests.Add(1)
				res, err := receiver.AcknowledgeEvents(ctx, tokens, nil)
				if err != nil || len(res.SucceededLockTokens) != len(tokens) {
					b.Errorf("acknowledge: %v (%d of %d)", err, len(res.SucceededLockTokens), len(tokens))
					cancel()
					return
				}
				if acked.Add(int64(len(tokens))) >= total {
					cancel() // ends the other receivers' waits
				}
			}
		}()
	}
	wg.Wait()
	if got := acked.Load(); got != total {
		b.Fatalf("acknowledged %d of %d events", got, total)
	}
	cpu, instr := m.stop()
	reportCPU(b, float64(total), cpu, instr, requests.Load())
	reportTLSFloor(b, float64(total), cpu, requests.Load())
}
