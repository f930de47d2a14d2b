package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// secondSignalStatus is the exit status when a second SIGTERM or interrupt
// arrives while the emulator is shutting down.
const secondSignalStatus = 1

// stopOnSignal returns a context that ends at the first SIGTERM or
// interrupt, when the emulator starts shutting down (which takes well under
// a second, emulator.ShutdownGrace at most for requests in flight). A
// second signal exits at once, for a user who does not want to wait.
func stopOnSignal(stderr io.Writer, exit func(int)) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	// Room for both signals, so neither is dropped while the first is handled.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	go func() {
		select {
		case <-signals:
			cancel()
		case <-ctx.Done():
			return
		}
		<-signals
		fmt.Fprintln(stderr, "gridbridge: second signal: exiting without waiting for the shutdown")
		exit(secondSignalStatus)
	}()
	return ctx, func() {
		signal.Stop(signals)
		cancel()
	}
}
