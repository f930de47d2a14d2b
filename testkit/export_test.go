package testkit

import "github.com/gridbridge/gridbridge/emulator"

// ServerOf is the in-process server behind e, for the package's own tests
// of what only the engine can set up.
func ServerOf(e *Emulator) *emulator.Server { return e.srv }
