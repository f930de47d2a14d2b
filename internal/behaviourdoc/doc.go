// Package behaviourdoc keeps docs/behaviour.md, the catalogue of rule ids
// (EG-7, NS-4, EB-8, D-DROP, W-EG-3.1…), true to the code: every id a Go
// file cites must have an entry, and each entry's Where line lists the
// packages that implement and test it. Its test checks both; run
// `go test ./internal/behaviourdoc -update` to rewrite the Where lines.
package behaviourdoc
