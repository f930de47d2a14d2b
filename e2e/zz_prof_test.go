package e2e

import (
	"testing"
	"time"

	"github.com/gridbridge/gridbridge/emulator"
	"github.com/gridbridge/gridbridge/fakes"
	"github.com/gridbridge/gridbridge/testkit"
)

func TestZZProf(t *testing.T) {
	emu := testkit.Start(t, testkit.WithOptions(func(o *emulator.Options) { o.DisableJitter = false; o.DisableProbation = true }))
	hook := fakes.NewWebhook(t, fakes.Always(500))
	startBacklog(t, emu, hook.URL(), 10000)
	for h := 1; h <= 40; h++ {
		emu.Advance(time.Hour)
	}
}
