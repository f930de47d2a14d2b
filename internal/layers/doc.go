// Package layers holds the test of which way the project's imports point:
//
//	cmd, testkit → emulator → the faces (compat/*) → the kits (compat/aws, compat/azure,
//	compat/entra, internal/*) → emulator/engine
//
// The engine imports nothing of the project; a face imports no other face's
// top-level package (Scheduler reaches EventBridge through compat/aws/eventbus);
// the kits import no face; production code imports no test helper.
package layers
