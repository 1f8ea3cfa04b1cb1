package figures

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

func TestGraphStatsTable(t *testing.T) {
	// Path 0-1-2-3 stored in both directions, labels 0,0,1,1: of the 6
	// directed edges, 0<->1 and 2<->3 are homophilic, so h = 4/6.
	g := graph.MustNew(graph.Spec{Name: "texas", NumNodes: 4,
		Src: []int32{0, 1, 1, 2, 2, 3}, Dst: []int32{1, 0, 2, 1, 3, 2}, Labels: []int32{0, 0, 1, 1}})
	md := GraphStatsTable("stats", []*graph.Graph{g}, paper.Table4).Markdown()
	for _, want := range []string{"| measure | texas | paper |", "| nodes | 4 | 183 |", "| edges (directed, as stored) | 6 | 309 |",
		"| undirected pairs (no self loops) | 3 |", "| edge homophily h (Definition 1) | 0.667 | 0.11 |", "| average degree (edges/nodes) | 1.50 | 1.69 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("GraphStatsTable lacks %q:\n%s", want, md)
		}
	}
	// One class: the normalised measures are undefined and say why.
	one := graph.MustNew(graph.Spec{Name: "one", NumNodes: 2, Src: []int32{0}, Dst: []int32{1}, Labels: []int32{0, 0}})
	md = GraphStatsTable("", []*graph.Graph{one}, nil).Markdown()
	if !strings.Contains(md, "| adjusted homophily (Platonov et al.) | n/a |") || !strings.Contains(md, "one, adjusted homophily") {
		t.Errorf("undefined measures:\n%s", md)
	}
}

func TestCompatibilityHeatmap(t *testing.T) {
	c := &homophily.Compatibility{Fractions: [][]float64{{0.25, 0.75}, {0, 0}}, EmptyRows: []int{1}}
	svg := CompatibilityHeatmap("compat", c, []string{"a", "b"}).SVG()
	checkSVG(t, "CompatibilityHeatmap", svg, "0.25", "0.75", "centre class k", ">a<", ">b<")
	if strings.Contains(svg, ">0.00<") {
		t.Errorf("empty row annotated as 0")
	}
}

func TestSplitTableAndBars(t *testing.T) {
	cols := []Column{{Name: "GCN", Values: []float64{80, 90}, Prec: 1}, {Name: "w", Values: []float64{0.5, math.NaN()}, Prec: 2}}
	md := SplitTable("acc", []int{0, 3}, cols).Markdown()
	// Population std of {80, 90} is 5; the NaN is left out of the mean.
	for _, want := range []string{"| split | GCN | w |", "| 3 | 90.0 | – |", "| mean ± std | 85.0 ± 5.0 | 0.50 ± 0.00 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("SplitTable lacks %q:\n%s", want, md)
		}
	}
	checkSVG(t, "SplitBars", SplitBars("bars", "acc", []int{0, 3}, cols[:1]).SVG(), "split 0", "split 3", "GCN", "90.0")
	checkSVG(t, "EpochFigure", EpochFigure("w", "weight", []EpochCurve{{Name: "split 0", Y: []float64{0.5, 0.6, 0.7}, Best: 2}}).SVG(),
		"split 0", "epoch", "weight")
}

func run(ds, model string, split int, test float64, cfg, date string, params, metrics map[string]float64) results.Run {
	return results.Run{Dataset: ds, Model: model, Split: split, TestAcc: test, Params: params, Metrics: metrics,
		Options: map[string]string{"config": cfg}, Provenance: results.Provenance{Commit: "abcdef0123456789", Backend: "go", Date: date, Machine: "m"}}
}

func TestRefineTable(t *testing.T) {
	runs := []results.Run{
		run("texas", "lwgcn+refine1", 0, 0.85, "c", "2026-01-01T00:00:00Z", nil, map[string]float64{"round0_test_acc": 0.8, "round1_test_acc": 0.85, "round0_pseudo_acc": 0.7, "round1_pseudo_acc": 0.75}),
		run("texas", "lwgcn+refine1", 1, 0.95, "c", "2026-01-02T00:00:00Z", nil, map[string]float64{"round0_test_acc": 0.9, "round1_test_acc": 0.95, "round0_pseudo_acc": 0.8, "round1_pseudo_acc": 0.85}),
	}
	md := RefineTable("refine", runs, strings.ToUpper).Markdown()
	for _, want := range []string{"| TEXAS | lwgcn+refine1 | 2 | 85.0 ± 5.0 | 90.0 ± 5.0 | 75.0 ± 5.0 | 80.0 ± 5.0 |",
		"2 runs; commit abcdef0123, backend go, no SIMD, m, 2026-01-02", "test accuracy (%): round 1 |",
		"pseudo-label accuracy on test nodes (%): round 0 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("RefineTable lacks %q:\n%s", want, md)
		}
	}
}

func TestSpeedRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.json")
	os.WriteFile(path, []byte(`[{"dataset":"texas","ms_per_epoch":4,"cpu_ms_per_epoch":7.5,"peak_rss_bytes":104857600,
		"provenance":{"commit":"c0ffee","backend":"go","date":"2026-02-03T00:00:00Z","machine":"box"}},
		{"dataset":"other","ms_per_epoch":2}]`), 0o644)
	rows, err := ReadSpeedRows(path, map[string]struct{ Ms, Goal float64 }{"texas": {16, 3}})
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %v, err %v", rows, err)
	}
	md := SpeedTable("speed", rows, nil).Markdown()
	for _, want := range []string{"| texas | 4.0 | 7.5 | 100 | 16 | 4.0× | 3× | yes |", "| other | 2.0 | 0.0 | 0 | – | – | – | – |", "commit c0ffee"} {
		if !strings.Contains(md, want) {
			t.Errorf("SpeedTable lacks %q:\n%s", want, md)
		}
	}
	os.WriteFile(path, []byte(`[{"dataset":"texas"}]`), 0o644)
	if _, err := ReadSpeedRows(path, nil); err == nil || !strings.Contains(err.Error(), "record 0") {
		t.Errorf("bad record: %v", err)
	}
	if _, err := ReadSpeedRows(filepath.Join(t.TempDir(), "missing.json"), nil); err == nil {
		t.Error("missing file: no error")
	}
}

// TestProvenanceCounts: every commit and machine that recorded runs is
// named with its count, the latest group first (a footer naming only the
// latest run hid the older commits of a sweep).
func TestProvenanceCounts(t *testing.T) {
	run := func(commit, machine, date string, dirty bool) results.Run {
		return results.Run{Provenance: results.Provenance{Commit: commit, Dirty: dirty, Machine: machine, Backend: "xla:cpu", Date: date}}
	}
	runs := []results.Run{
		run("aaaaaaaaaaaa", "AMD", "2026-11-28T01:00:00Z", true),
		run("bbbbbbbbbbbb", "Intel", "2026-11-29T02:00:00Z", false),
		run("aaaaaaaaaaaa", "AMD", "2026-11-28T03:00:00Z", true),
		run("bbbbbbbbbbbb", "Intel", "2026-11-29T01:00:00Z", false),
		run("bbbbbbbbbbbb", "Intel", "2026-11-29T00:00:00Z", false),
	}
	want := "3 at commit bbbbbbbbbb, backend xla:cpu, Intel, 2026-11-29; 2 at commit aaaaaaaaaa+dirty, backend xla:cpu, AMD, 2026-11-28"
	if got := ProvenanceCounts(runs); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// The footer lists the groups when there are several, else the one.
	if got := ProvenanceLine(runs); got != "5 runs: "+want {
		t.Fatalf("ProvenanceLine = %q", got)
	}
	one := "3 runs; commit bbbbbbbbbb, backend xla:cpu, Intel, 2026-11-29"
	if got := ProvenanceLine(runs[3:]); got != "2 runs; commit bbbbbbbbbb, backend xla:cpu, Intel, 2026-11-29" {
		t.Fatalf("ProvenanceLine of one group = %q (like %q)", got, one)
	}
	// One commit and machine with two kernel sets (an A/B run), or two
	// XLA_FLAGS, are two groups, each named with its own.
	kernels := func(k string) results.Run {
		return results.Run{Provenance: results.Provenance{Commit: "cccccccccccc", Machine: "Intel", Backend: "go",
			Engine: "patched", Kernels: k, Date: "2026-11-29T00:00:00Z"}}
	}
	flags := func(f string) results.Run {
		return results.Run{Provenance: results.Provenance{Commit: "cccccccccccc", Machine: "H", Backend: "xla:cuda",
			XLAFlags: f, Date: "2026-11-29T00:00:00Z"}}
	}
	for _, c := range []struct {
		runs []results.Run
		want string
	}{
		{[]results.Run{kernels("adam"), kernels(""), kernels("adam")},
			"2 at commit cccccccccc, backend go, no SIMD, lwgcn kernels adam, Intel, 2026-11-29; " +
				"1 at commit cccccccccc, backend go, no SIMD, lwgcn kernels off, Intel, 2026-11-29"},
		{[]results.Run{flags("--xla_gpu_autotune_level=0"), flags("")},
			"1 at commit cccccccccc, backend xla:cuda, XLA_FLAGS --xla_gpu_autotune_level=0, H, 2026-11-29; " +
				"1 at commit cccccccccc, backend xla:cuda, H, 2026-11-29"},
	} {
		if got := ProvenanceCounts(c.runs); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
