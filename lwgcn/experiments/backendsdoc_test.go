package experiments

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// The note on the backend timings follows what each block recorded: idle
// (the worst block's figure), shared (the blocks named with their figure)
// or not recorded.
func TestBackendShareNote(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	row := func(backend string, procs int, others *float64) results.BackendBench {
		return results.BackendBench{Dataset: "texas", Case: "gcn", Backend: backend, GOMAXPROCS: procs, CPUs: procs, MsPerEpoch: 1, OtherCores: others}
	}
	idle := []results.BackendBench{row("go", 2, f(0.03)), row("xla:cpu", 2, f(0.11)), row("go", 1, f(0.02))}
	note := backendShareNote(idle)
	if !strings.Contains(note, "otherwise idle machine: other processes kept at most 0.11 cores busy") || strings.Contains(note, "shared") {
		t.Errorf("idle note = %q", note)
	}
	shared := append(idle, row("xla:cpu", 1, f(1.37)))
	note = backendShareNote(shared)
	if !strings.Contains(note, "(xla:cpu at 1 thread: 1.37 cores)") || strings.Contains(note, "otherwise idle") {
		t.Errorf("shared note = %q", note)
	}
	unknown := []results.BackendBench{row("go", 2, nil), row("xla:cpu", 2, f(0.01))}
	note = backendShareNote(unknown)
	if !strings.Contains(note, "was not recorded for go at 2 threads (") || strings.Contains(note, "otherwise idle") {
		t.Errorf("unknown note = %q", note)
	}
}
