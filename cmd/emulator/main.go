// Command emulator runs GridBridge: Azure Event Grid and Amazon EventBridge
// on one local HTTP and HTTPS endpoint, for integration tests.
//
// Every flag can also be set through an environment variable named
// GRIDBRIDGE_<FLAG>, upper-cased with dashes as underscores
// (--sqs-endpoint → GRIDBRIDGE_SQS_ENDPOINT). A flag on the command line wins.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gridbridge/gridbridge/emulator"
)

func main() {
	ctx, stop := stopOnSignal(os.Stderr, os.Exit)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "gridbridge:", err)
		os.Exit(2)
	}
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// run starts the emulator, prints one line per endpoint, and serves until
// ctx ends.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		opts        emulator.Options
		azure, tlsH listFlag
		allowedH    listFlag
		logLevel    string
		healthcheck bool
		showVersion bool
		memLimit    = memoryLimit{getenv: getenv}
		noRelease   bool
		gcPct       = gcPercent{getenv: getenv}
	)
	fs.StringVar(&opts.Addr, "addr", "127.0.0.1:4080", "HTTP listen address (127.0.0.1:0 picks a free port)")
	fs.StringVar(&opts.TLSAddr, "tls-addr", "127.0.0.1:4443", "HTTPS listen address (127.0.0.1:0 picks a free port)")
	fs.StringVar(&opts.Clock, "clock", "real", "clock: real or virtual (virtual moves only through POST /_emulator/clock/advance)")
	fs.Float64Var(&opts.TimeScale, "time-scale", 1, "cloud seconds per real second on the real clock (e.g. 60: a 10-minute retry takes 10 s)")
	fs.Var(&azure, "azure-storage", "Azure Storage connection string for dead-letter blobs (repeatable; \"UseDevelopmentStorage=true\" for Azurite)")
	fs.DurationVar(&opts.StoragePoll, "storage-poll", 0, "how often the storage accounts of Event Grid system topics are listed for blob events, about 1,000 blobs per account per poll (default 1s; negative: only on POST /_emulator/eventgrid/storage/sync, which lists everything)")
	fs.StringVar(&opts.SQSEndpoint, "sqs-endpoint", "", "SQS-compatible endpoint for SQS targets and dead-letter queues (default: in memory)")
	fs.IntVar(&opts.JournalCap, "journal-cap", 0, "entries the journal keeps before discarding the oldest (default 100000)")
	fs.Int64Var(&opts.JournalMaxBytes, "journal-max-bytes", 0, "estimated bytes the journal keeps before discarding the oldest entries (default 4194304)")
	fs.Var(&tlsH, "tls-host", "extra host name or IP for the server certificate (repeatable)")
	fs.Var(&allowedH, "allowed-host", "another host name the emulator answers, besides IPs, localhost, *.localhost, --tls-host and --advertise-tls-url (repeatable; \".example.test\" adds subdomains, \"*\" any host)")
	fs.StringVar(&opts.AdvertiseTLSURL, "advertise-tls-url", "", "https base URL written into resources, when clients reach the emulator through another address")
	fs.StringVar(&opts.CAFile, "ca-file", "", "where to write the CA certificate (default: gridbridge-ca-<port>.pem in the temp directory)")
	fs.BoolVar(&opts.DisableJitter, "no-jitter", false, "turn off retry jitter so schedules are exact")
	fs.Int64Var(&opts.Seed, "seed", 0, "seed for retry jitter (0: random)")
	fs.BoolVar(&opts.DisableProbation, "no-probation", false, "turn off Event Grid delayed delivery and probation")
	fs.BoolVar(&opts.StrictAuth, "strict-auth", false, "refuse bearer tokens the emulator's Entra ID authority did not issue, and ARM requests without one")
	fs.DurationVar(&opts.SettleTimeout, "settle", 0, "virtual clock: how long an advance waits for work it started before moving time (default 1s); a delivery waiting for its endpoint's answer is waited for a tenth of it")
	fs.StringVar(&opts.Config, "config", "", "topology file (JSON or YAML) of Event Grid topics and subscriptions and EventBridge buses, rules and targets to create at start")
	fs.DurationVar(&opts.ReadTimeout, "read-timeout", emulator.DefaultReadTimeout, "how long a client may take to send a request body")
	fs.DurationVar(&opts.IdleTimeout, "idle-timeout", emulator.DefaultIdleTimeout, "how long an idle keep-alive connection stays open")
	fs.BoolVar(&opts.RecordSecrets, "record-secrets", false, "show secret values (auth parameters, values marked secret, webhook URL queries) in the inspection API, journal and logs, for debugging")
	fs.Var(&memLimit, "memory-limit", "soft memory limit of the Go runtime, e.g. 64MiB, 1GiB, or off (default 96MiB unless GOMEMLIMIT is set): near it the emulator collects garbage sooner and returns freed memory to the system")
	fs.Var(&gcPct, "gc-percent", "the Go runtime's GOGC: how far the heap grows past its live data before a collection, in percent, or off (default 50 unless GOGC is set)")
	fs.BoolVar(&noRelease, "no-memory-release", false, "keep the memory freed during a virtual-clock advance instead of giving it back to the system when the advance ends")
	fs.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.BoolVar(&healthcheck, "healthcheck", false, "probe the running emulator at --addr and exit 0 when healthy (for container health checks)")
	fs.BoolVar(&showVersion, "version", false, "print the version and exit (on the command line only)")
	fs.Usage = usage(fs, os.Args[0])

	if err := fs.Parse(args); err != nil {
		return err
	}
	if showVersion {
		// Read before the environment: a stray GRIDBRIDGE_VERSION must not
		// turn a server into a one-line command.
		fmt.Fprintln(stdout, version())
		return nil
	}
	if err := applyEnv(fs, getenv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	opts.AzureStorage, opts.TLSHosts, opts.AllowedHosts = azure, tlsH, allowedH
	if healthcheck {
		return probe(ctx, healthcheckAddr(fs, opts.Addr))
	}
	if limit, ok := memLimit.resolve(); ok {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	if percent, ok := gcPct.resolve(); ok {
		defer debug.SetGCPercent(debug.SetGCPercent(percent))
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if !noRelease {
		opts.AfterAdvance = (&memoryRelease{log: opts.Logger}).afterAdvance
	}
	started := time.Now()
	srv, err := emulator.Start(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	caFile := opts.CAFile
	if caFile == "" {
		// The default name carries the port, so two emulators never share it.
		caFile = filepath.Join(os.TempDir(), "gridbridge-ca-"+portOf(srv.TLSURL())+".pem")
		if err := srv.WriteCA(caFile); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "gridbridge: http   %s\n", srv.URL())
	fmt.Fprintf(stdout, "gridbridge: https  %s\n", srv.TLSURL())
	fmt.Fprintf(stdout, "gridbridge: ca     %s\n", caFile)
	fmt.Fprintf(stdout, "gridbridge: clock  %s\n", srv.Clock().Mode())
	fmt.Fprintf(stdout, "gridbridge: dashboard %s/_emulator/ui/\n", srv.URL())
	if opts.Config != "" {
		fmt.Fprintf(stdout, "gridbridge: config %s\n", opts.Config)
	}
	fmt.Fprintf(stdout, "gridbridge: ready in %s (inspection API: %s/_emulator/health)\n", time.Since(started).Round(time.Microsecond), srv.URL())

	<-ctx.Done()
	fmt.Fprintln(stdout, "gridbridge: shutting down")
	return srv.Close()
}

// applyEnv fills every flag not given on the command line from its
// GRIDBRIDGE_* environment variable. A repeatable flag takes several values
// separated by newlines or spaces (connection strings contain no spaces).
func applyEnv(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := envName(f.Name)
		v := getenv(name)
		if v == "" {
			return
		}
		values := []string{v}
		if _, repeatable := f.Value.(*listFlag); repeatable {
			values = strings.Fields(v)
		}
		for _, one := range values {
			if e := f.Value.Set(one); e != nil {
				err = fmt.Errorf("%s=%q: %w", name, v, e)
				return
			}
		}
	})
	return err
}

// envName is the environment variable that sets a flag.
func envName(flagName string) string {
	return "GRIDBRIDGE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func portOf(url string) string {
	i := strings.LastIndexByte(url, ':')
	if i < 0 {
		return "0"
	}
	if _, err := strconv.Atoi(url[i+1:]); err != nil {
		return "0"
	}
	return url[i+1:]
}
