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
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "xla:cpu", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 36.6, CPUMs: 50, CompileSecs: 4.25},
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "go", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 18.3, CPUMs: 30.5, CompileSecs: 0.01},
		{Dataset: "texas", Case: results.CaseEpoch, Backend: "go", GOMAXPROCS: 1, CPUs: 1, MsPerEpoch: 9.7, CPUMs: 9.6},
		{Dataset: "texas", Case: "gcn", Backend: "xla:cpu", GOMAXPROCS: 2, CPUs: 2, Error: "boom"},
	}
	md := BackendSpeedTable("speed", rows, PyTorchThreads{"texas": {19.4, 18.3}}, nil, nil).Markdown()
	for _, want := range []string{
		"| go ms/epoch (CPU ms) | go compile (s) | xla:cpu ms/epoch (CPU ms) | xla:cpu compile (s) | PyTorch ms/epoch | PyTorch ÷ go | PyTorch ÷ xla:cpu |",
		"| texas | lwgcn-epoch | 1 | 9.7 (9.6) | 0.00 | not run | – | 19.4 | 2.0× | – |",             // 19.4 / 9.7
		"| texas | lwgcn-epoch | 2 | 18.3 (30.5) | 0.01 | 36.6 (50.0) | 4.25 | 18.3 | 1.0× | 0.5× |", // 18.3 / 36.6
		"| texas | gcn | 2 | not run | – | error: boom | – | – | – | – |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
}
