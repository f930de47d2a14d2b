//go:build race

package awsmodel_test

// raceEnabled: the race detector makes values escape that otherwise stay
// on the stack, so allocation counts mean nothing under it.
const raceEnabled = true
