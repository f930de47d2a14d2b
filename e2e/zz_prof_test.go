package e2e

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator"
	"github.com/gridbridge/gridbridge/testkit"
)

func TestZZProf(t *testing.T) {
	runtime.MemProfileRate = 64
	emu := testkit.Start(t, testkit.WithOptions(func(o *emulator.Options) { o.DisableJitter = false; o.DisableProbation = os.Getenv("NOPROB") != "" }))
	startBacklog(t, emu, failingEndpoint(t), 10000)
	for h := 1; h <= 12; h++ {
		emu.Advance(time.Hour)
	}
	runtime.GC()
	f, _ := os.Create("/tmp/heap.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("heap alloc %d MB, sys %d MB, journal %+v", m.HeapAlloc>>20, m.HeapSys>>20, emu.Inspector())
}
