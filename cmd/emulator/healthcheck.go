package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// healthcheckAddr is the address --healthcheck probes. The image's health
// check runs `/emulator --healthcheck` with the container's environment
// only, so it cannot see an --addr given to the container on the command
// line (docker run gridbridge --addr 0.0.0.0:5080). In a container the
// emulator is process 1: when process 1 is this same binary, the --addr on
// its command line wins over the environment's. --addr given to the health
// check itself wins over both.
func healthcheckAddr(fs *flag.FlagSet, configured string) string {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "addr" })
	if given {
		return configured
	}
	if addr, ok := addrOfProcessOne(fs); ok {
		return addr
	}
	return configured
}

// addrOfProcessOne is the --addr flag of process 1 when process 1 runs
// this binary and was given one. Its command line is read with fs's own
// flags, so every flag's value is skipped as the emulator itself reads it
// (the values land in fs's variables, which the health check does not use).
func addrOfProcessOne(fs *flag.FlagSet) (string, bool) {
	self, err := os.Executable()
	if err != nil {
		return "", false
	}
	exe, err := os.Readlink("/proc/1/exe")
	if err != nil || exe != self {
		return "", false
	}
	raw, err := os.ReadFile("/proc/1/cmdline")
	if err != nil {
		return "", false
	}
	args := strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")[1:]
	return addrFlag(fs, args)
}

// addrFlag is the --addr in args, parsed with fs's flags.
func addrFlag(fs *flag.FlagSet, args []string) (string, bool) {
	again := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	again.SetOutput(io.Discard)
	fs.VisitAll(func(f *flag.Flag) { again.Var(f.Value, f.Name, f.Usage) })
	if again.Parse(args) != nil {
		return "", false
	}
	given := false
	again.Visit(func(f *flag.Flag) { given = given || f.Name == "addr" })
	if !given {
		return "", false
	}
	return again.Lookup("addr").Value.String(), true
}

// probe asks the emulator listening on addr whether it is healthy. Images
// built FROM scratch-like bases have no curl, so the binary checks itself.
func probe(ctx context.Context, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/_emulator/health", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("unhealthy: %w (the health check probes --addr, GRIDBRIDGE_ADDR or the --addr of the emulator running as process 1)", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: %s", resp.Status)
	}
	return nil
}
