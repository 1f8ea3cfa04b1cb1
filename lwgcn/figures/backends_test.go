package figures

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// The table pairs the backends' timings of one case and divides the
// authors' time at the same thread count by each.
func TestBackendSpeedTable(t *testing.T) {
	rows := []results.BackendBench{
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "xla:cpu", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 36.6, CPUMs: 50, CompileSecs: 4.25, PeakRSS: 3 << 29},
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "go", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 18.3, CPUMs: 30.5, CompileSecs: 0.01},
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "go", GOMAXPROCS: 1, CPUs: 1, MsPerEpoch: 9.7, CPUMs: 9.6},
		{Dataset: "texas", Case: "gcn", Backend: "xla:cpu", GOMAXPROCS: 2, CPUs: 2, Error: "boom"},
	}
	md := BackendSpeedTable("speed", rows, PyTorchThreads{"texas": {19.4, 18.3}}, nil, nil).Markdown()
	for _, want := range []string{
		"| go ms/epoch (CPU ms) | go compile (s) | go peak RSS | xla:cpu ms/epoch (CPU ms) | xla:cpu compile (s) | xla:cpu peak RSS | PyTorch ms/epoch | PyTorch ÷ go | PyTorch ÷ xla:cpu | faster per epoch |",
		"| texas | lwgcn-epoch | 1 | 9.7 (9.6) | 0.00 | – | not run | – | – | 19.4 | 2.0× | – | – |",                           // 19.4 / 9.7
		"| texas | lwgcn-epoch | 2 | 18.3 (30.5) | 0.01 | – | 36.6 (50.0) | 4.25 | 1536 MiB | 18.3 | 1.0× | 0.5× | go 2.00× |", // 18.3 / 36.6
		"| texas | gcn | 2 | not run | – | – | error: boom | – | – | – | – | – | – |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	// Timings from another machine: no PyTorch columns.
	md = BackendSpeedTable("", rows, nil, nil, nil).Markdown()
	if strings.Contains(md, "PyTorch") || !strings.Contains(md, "| texas | lwgcn-epoch | 2 | 18.3 (30.5) | 0.01 | – | 36.6 (50.0) | 4.25 | 1536 MiB | go 2.00× |") {
		t.Errorf("table without PyTorch:\n%s", md)
	}
}

// The footer is the latest provenance when all rows share a commit and
// machine; with rows of several commits it gives each backend's, and the
// older commits a backend's rows still come from.
func TestBackendSpeedTableFooter(t *testing.T) {
	prov := func(commit string, dirty bool, backend, date string) results.Provenance {
		return results.Provenance{Commit: commit, Dirty: dirty, Backend: backend, Machine: "m", Date: date}
	}
	row := func(ds, backend string, p results.Provenance) results.BackendBench {
		return results.BackendBench{Dataset: ds, Case: results.CaseEpoch, Backend: backend, GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 1, Provenance: p}
	}
	one := []results.BackendBench{
		row("texas", "go", prov("aaaaaaaaaaaa", false, "go", "2026-11-01T00:00:00Z")),
		row("texas", "xla:cuda", prov("aaaaaaaaaaaa", false, "xla:cuda", "2026-11-02T00:00:00Z")),
	}
	md := BackendSpeedTable("", one, nil, nil, nil).Markdown()
	if want := "_commit aaaaaaaaaa, backend xla:cuda, m, 2026-11-02_"; !strings.Contains(md, want) {
		t.Errorf("one commit: footer lacks %q:\n%s", want, md)
	}
	mixed := []results.BackendBench{
		row("texas", "go", prov("aaaaaaaaaaaa", true, "go", "2026-11-01T00:00:00Z")),
		row("cora", "xla:cuda", prov("aaaaaaaaaaaa", true, "xla:cuda", "2026-11-01T00:00:00Z")),
		row("texas", "xla:cuda", prov("bbbbbbbbbbbb", false, "xla:cuda", "2026-11-03T00:00:00Z")),
	}
	md = BackendSpeedTable("", mixed, nil, nil, nil).Markdown()
	want := "_go rows: commit aaaaaaaaaa+dirty, backend go, no SIMD, m, 2026-11-01; " +
		"xla:cuda rows: commit bbbbbbbbbb, backend xla:cuda, m, 2026-11-03 (older rows: commit aaaaaaaaaa+dirty)_"
	if !strings.Contains(md, want) {
		t.Errorf("mixed commits: footer lacks %q:\n%s", want, md)
	}
}

// The faster backend per epoch, and when it compiles slower, the epochs
// from which it wins overall: XLA saves 30 - 20 = 10 ms per epoch and
// compiles 4.0 - 0.5 = 3.5 s longer, so it wins from 350 epochs.
func TestFasterBackend(t *testing.T) {
	goRow := results.BackendBench{Backend: "go", MsPerEpoch: 30, CompileSecs: 0.5}
	xla := results.BackendBench{Backend: "xla:cpu", MsPerEpoch: 20, CompileSecs: 4.0}
	if got, want := FasterBackend(goRow, xla), "xla:cpu 1.50× (from 350 epochs)"; got != want {
		t.Errorf("FasterBackend = %q, want %q", got, want)
	}
	// Faster and compiling faster: no break-even.
	goRow.MsPerEpoch = 10
	if got, want := FasterBackend(xla, goRow), "go 2.00×"; got != want {
		t.Errorf("FasterBackend = %q, want %q", got, want)
	}
	xla.Error = "boom"
	if got := FasterBackend(goRow, xla); got != "–" {
		t.Errorf("FasterBackend with a failed timing = %q, want –", got)
	}
}
