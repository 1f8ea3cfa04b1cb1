package report

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
	note := backendShareNote(idle, true)
	if !strings.Contains(note, "otherwise idle machine: other processes kept at most 0.11 cores busy") || strings.Contains(note, "shared") {
		t.Errorf("idle note = %q", note)
	}
	shared := append(idle, row("xla:cpu", 1, f(1.37)))
	note = backendShareNote(shared, true)
	if !strings.Contains(note, "(xla:cpu at 1 thread: 1.37 cores), so those wall times include waiting for a core and their ratios to PyTorch") || strings.Contains(note, "otherwise idle") {
		t.Errorf("shared note = %q", note)
	}
	unknown := []results.BackendBench{row("go", 2, nil), row("xla:cpu", 2, f(0.01))}
	note = backendShareNote(unknown, true)
	if !strings.Contains(note, "was not recorded for go at 2 threads (") || strings.Contains(note, "otherwise idle") {
		t.Errorf("unknown note = %q", note)
	}
	// Rows record their own figure: a block is as busy as its busiest row.
	perRow := append(idle, row("go", 2, f(0.9)))
	note = backendShareNote(perRow, false)
	if !strings.Contains(note, "(go at 2 threads: 0.90 cores), so those wall times include waiting for a core; the CPU time") {
		t.Errorf("per-row note = %q", note)
	}
}

// GPU timings (results/bench-gpu.json) get their own table, without the
// PyTorch columns (another machine); with no timings at all, no section.
func TestBackendsSectionGPU(t *testing.T) {
	dir := t.TempDir()
	if md, err := backendsSection(dir); err != nil || md != "" {
		t.Fatalf("empty results dir: %q, %v", md, err)
	}
	cores := 0.01
	rows := []results.BackendBench{
		{Dataset: "cora", Case: results.CaseEpoch, Backend: "go", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 301.5, CPUMs: 505.4, OtherCores: &cores},
		{Dataset: "cora", Case: results.CaseEpoch, Backend: "xla:xla_cuda_plugin.so", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 17.1, CPUMs: 14.5, CompileSecs: 112, OtherCores: &cores},
	}
	writeJSONFile(t, dir, "bench-gpu.json", rows)
	md, err := backendsSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Speed on a GPU machine",
		"| Cora | lwgcn-epoch | 2 | 301.5 (505.4) | 0.00 | – | 17.1 (14.5) | 112.00 | – | xla:xla\\_cuda\\_plugin.so 17.63× (from 394 epochs) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "PyTorch ms/epoch") || strings.Contains(md, "no timings") {
		t.Errorf("GPU section with PyTorch columns or the no-timings line:\n%s", md)
	}
}

// The compile table lists the full epochs that recorded their compiles,
// in dataset order, and nothing when none did (older files).
func TestCompileTable(t *testing.T) {
	rows := []results.BackendBench{
		{Dataset: "cora", Case: results.CaseEpoch, Backend: "xla:cpu", CPUs: 2, GOMAXPROCS: 2, CompileSecs: 3.25, LongestCompileSecs: 2.125, Compiles: 3, EpochOps: 4120, EpochHLOBytes: 300 << 10},
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "go", CPUs: 2, GOMAXPROCS: 1, CompileSecs: 0.5, Compiles: 3, EpochOps: 3900},
		{Dataset: "texas", Case: "gcn", Backend: "go", CPUs: 2, GOMAXPROCS: 1, Compiles: 1, EpochOps: 10},
		{Dataset: "squirrel", Case: results.CaseEpoch, Backend: "go", CPUs: 2, GOMAXPROCS: 2, CompileSecs: 1},
	}
	md := compileTable(rows)
	// Texas's row predates the longest graph's time: "–".
	texas := strings.Index(md, "| Texas | go | 1 | 0.50 | 3 | – | 3900 | – |")
	cora := strings.Index(md, "| Cora | xla:cpu | 2 | 3.25 | 3 | 2.12 | 4120 | 300 |")
	if texas < 0 || cora < texas {
		t.Errorf("compile table lacks Texas's then Cora's row:\n%s", md)
	}
	if strings.Contains(md, "Squirrel") || strings.Contains(md, "| gcn") || strings.Count(md, "\n|") != 4 {
		t.Errorf("compile table has rows without compiles or of layer cases:\n%s", md)
	}
	if got := compileTable(rows[3:]); got != "" {
		t.Errorf("no compiles recorded: %q, want no table", got)
	}
	// Rows of 3 graphs counted the evaluation graph: the table says so, and
	// only when it lists one.
	if !strings.Contains(md, "Rows with 3 graphs were recorded while") {
		t.Errorf("rows of 3 graphs without the note on what they counted:\n%s", md)
	}
	rows[0].Compiles, rows[1].Compiles = 2, 2
	if md := compileTable(rows); strings.Contains(md, "Rows with 3 graphs") {
		t.Errorf("note on rows of 3 graphs under a table of 2-graph rows:\n%s", md)
	}
}

// Timings from another host (results/bench-backends-<host>.json) get a
// table of their own after the main one, without PyTorch's columns, with
// their compile table.
func TestBackendsSectionOtherHost(t *testing.T) {
	dir := t.TempDir()
	cores := 0.01
	main := []results.BackendBench{
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "go", GOMAXPROCS: 1, CPUs: 1, MsPerEpoch: 14.1, CPUMs: 14.1, OtherCores: &cores},
	}
	other := []results.BackendBench{
		{Dataset: "cora", Case: results.CaseEpoch, Backend: "xla:cpu", GOMAXPROCS: 1, CPUs: 1, MsPerEpoch: 546.4, CPUMs: 546.3,
			CompileSecs: 10.2, Compiles: 2, EpochOps: 2920, EpochHLOBytes: 424 << 10, OtherCores: &cores},
	}
	writeJSONFile(t, dir, "bench-backends.json", main)
	writeJSONFile(t, dir, "bench-backends-intel.json", other)
	md, err := backendsSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(md, "The same cases in another run (results/bench-backends-intel.json")
	if at < 0 || at < strings.Index(md, "| Texas | lwgcn-epoch | 1 | 14.1 (14.1)") {
		t.Fatalf("no other-host table after the main one:\n%s", md)
	}
	rest := md[at:]
	for _, want := range []string{"| Cora | lwgcn-epoch | 1 | 546.4 (546.3) | 10.20 |", "| Cora | xla:cpu | 1 | 10.20 | 2 | – | 2920 | 424 |"} {
		if !strings.Contains(rest, want) {
			t.Errorf("other-host table lacks %q:\n%s", want, rest)
		}
	}
	if strings.Contains(rest, "PyTorch") && !strings.Contains(rest, "no PyTorch columns") {
		t.Errorf("other-host table with PyTorch columns:\n%s", rest)
	}
	// Another host's timings alone still make a section.
	alone := t.TempDir()
	writeJSONFile(t, alone, "bench-backends-intel.json", other)
	if md, err := backendsSection(alone); err != nil || !strings.Contains(md, "results/bench-backends-intel.json") {
		t.Errorf("only another host's timings: %q, %v", md, err)
	}
}
