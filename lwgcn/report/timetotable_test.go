package report

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// writeResults writes a hand-made results file.
func writeResults(t *testing.T, path string, sessions []results.Session, runs []results.Run) {
	t.Helper()
	data, err := json.Marshal(map[string]any{"version": results.FormatVersion, "sessions": sessions, "runs": runs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// handRun is a table run of method m on dataset d, split s, recorded by
// session (or none).
func handRun(exp, d, m string, s int, session string, totalSecs float64) results.Run {
	return results.Run{Key: fmt.Sprintf("%s|%s|%s|%d", exp, d, m, s), Experiment: exp, Dataset: d, Model: m, Split: s, Seed: 15,
		TestAcc: 0.5, Options: map[string]string{"config": "c"}, TotalSecs: totalSecs, Session: session,
		Provenance: results.Provenance{Commit: "c", Backend: "go", Date: "2026-01-01T00:00:00Z"}}
}

// Table 2's time-to-table from a hand-made file: sessions A (100.5 s) and
// B (30 s) recorded runs, C (999 s, nothing added) did not count; one run
// predates sessions (7.25 s of its own); only GCN on Texas has its 10 runs.
func TestTimeToTableTable2(t *testing.T) {
	dir := t.TempDir()
	sessions := []results.Session{{ID: "A", WallSecs: 100.5}, {ID: "B", WallSecs: 30}, {ID: "C", WallSecs: 999}}
	var runs []results.Run
	for s := range 10 {
		id := "A"
		switch {
		case s >= 6 && s < 9:
			id = "B"
		case s == 9:
			id = ""
		}
		runs = append(runs, handRun("table2", "texas", "gcn", s, id, 7.25))
	}
	runs = append(runs, handRun("table2", "texas", "mlp", 0, "A", 1), handRun("table2", "texas", "mlp", 1, "A", 1))
	writeResults(t, filepath.Join(dir, "table2.json"), sessions, runs)

	f, err := results.Open(filepath.Join(dir, "table2.json"))
	if err != nil {
		t.Fatal(err)
	}
	sums := Summaries(f.Runs())
	methods := append([]string{"lwgcn"}, "gcn", "mlp")
	cells, cellRuns := comparisonCells(sums, methods, experiments.Table2Datasets)
	got := computeTimeToTable(f.Sessions(), cellRuns, cells)
	want := TimeToTable{SessionSecs: 130.5, WallSecs: 130.5, Sessions: 2, MaxLoad1: -1, UnsessionedRuns: 1, UnsessionedSecs: 7.25, Cells: 3 * len(experiments.Table2Datasets), CompleteCells: 1}
	if got != want {
		t.Errorf("time-to-table %+v, want %+v", got, want)
	}

	doc, err := table2Section(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The section's cells: every method of `reproduce table2` (LW-GCN, GCN
	// and MLP among them) on its datasets.
	line := fmt.Sprintf("Time-to-table: 2.2 min of wall time in 2 sessions; plus 1 runs recorded before sessions: 7 s, "+
		"the sum of their own training times (total_secs; not wall time); not complete (1 of %d cells have all their "+
		"protocol runs).", len(experiments.Table2Datasets)*len(experiments.Table2Methods))
	if !strings.Contains(doc, line) {
		t.Errorf("table 2 section lacks\n%s\nit has:\n%s", line, doc)
	}
}

// A complete table (a Planetoid cell needs 3 seeds, others 10 splits) and
// the duration formats.
func TestTimeToTableComplete(t *testing.T) {
	var cora, texas []results.Run
	for seed := int64(10); seed < 13; seed++ {
		r := handRun("t", "cora", "gcn", 0, "S", 1)
		r.Seed = seed
		cora = append(cora, r)
	}
	for s := range 10 {
		texas = append(texas, handRun("t", "texas", "gcn", s, "S", 1))
	}
	cells := []cell{{runs: cora, want: protocolRunCount("cora")}, {runs: texas, want: protocolRunCount("texas")}}
	tt := computeTimeToTable([]results.Session{{ID: "S", WallSecs: 3 * 3600}}, append(cora, texas...), cells)
	if !tt.Complete() || tt.Sessions != 1 || tt.SessionSecs != 10800 {
		t.Errorf("%+v: want complete, 1 session of 10800 s", tt)
	}
	if got, want := tt.Markdown(), "Time-to-table: 3 h 00 min of wall time in 1 session; complete (every cell has all its protocol runs).\n"; got != want {
		t.Errorf("markdown %q, want %q", got, want)
	}
	// Sessions on a shared machine say so: the highest load recorded (start
	// or end, any session) against the largest GOMAXPROCS; a load within
	// GOMAXPROCS + 0.5 is not called shared.
	l := func(v float64) *float64 { return &v }
	shared := []results.Session{{ID: "S", WallSecs: 60, GOMAXPROCS: 2, Load1Start: l(1.2), Load1End: l(7.25)},
		{ID: "U", WallSecs: 60, GOMAXPROCS: 2, Load1Start: l(9)}} // U recorded no run of the table: not counted
	tt = computeTimeToTable(shared, texas, cells[1:])
	if tt.MaxLoad1 != 7.25 || tt.MaxProcs != 2 {
		t.Errorf("%+v: want max load 7.25, GOMAXPROCS 2", tt)
	}
	if got, want := tt.Markdown(), "Time-to-table: 1.0 min of wall time in 1 session (the machine was shared: load average up to 7.2 for GOMAXPROCS 2); complete (every cell has all its protocol runs).\n"; got != want {
		t.Errorf("markdown %q, want %q", got, want)
	}
	shared[0].Load1End = l(2.4)
	if got := computeTimeToTable(shared, texas, cells[1:]).Markdown(); strings.Contains(got, "shared") {
		t.Errorf("load 2.4 for GOMAXPROCS 2 called shared: %q", got)
	}
	// One seed short: incomplete.
	cells[0].runs = cora[:2]
	if tt := computeTimeToTable(nil, nil, cells); tt.Complete() || tt.CompleteCells != 1 {
		t.Errorf("%+v: want 1 of 2 cells complete", tt)
	}
	for secs, want := range map[float64]string{42: "42 s", 750: "12.5 min", 3725: "1 h 02 min"} {
		if got := fmtDuration(secs); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", secs, got, want)
		}
	}
}

// End to end on Texas (MLP, 1 run, 2 epochs): the session records the run
// it added; a resumed invocation that adds nothing records a session with
// 0 runs, and the table's time counts the first session only.
func TestRunRecordsSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := experiments.Spec{Experiment: "table2", ResultsPath: filepath.Join(dir, "table2.json"), Datasets: []string{"texas"},
		Methods: []string{"mlp"}, MaxRuns: 1, Override: experiments.Overrides{Epochs: 2}, DatasetOptions: dstest.Options(t),
		Command: "reproduce", Batch: experiments.BatchAlone}
	for range 2 {
		if _, err := experiments.Run(context.Background(), b, info, spec); err != nil {
			t.Fatal(err)
		}
	}
	f, err := results.Open(spec.ResultsPath)
	if err != nil {
		t.Fatal(err)
	}
	ss, runs := f.Sessions(), f.Runs()
	if len(ss) != 2 || len(runs) != 1 {
		t.Fatalf("%d sessions and %d runs, want 2 and 1", len(ss), len(runs))
	}
	if ss[0].RunsAdded != 1 || ss[1].RunsAdded != 0 || !ss[0].Finished || !ss[1].Finished || runs[0].Session != ss[0].ID {
		t.Errorf("sessions %+v, run's session %q", ss, runs[0].Session)
	}
	s := ss[0]
	if s.Command != "reproduce" || s.Experiment != "table2" || s.Backend != info.Name || s.Batch != "alone" ||
		strings.Join(s.Datasets, ",") != "texas" || strings.Join(s.Methods, ",") != "mlp" || s.WallSecs < runs[0].TotalSecs {
		t.Errorf("session %+v (run took %.3f s)", s, runs[0].TotalSecs)
	}
	doc, err := table2Section(dir)
	if err != nil {
		t.Fatal(err)
	}
	// On a busy machine the count is followed by a note on the load.
	if !strings.Contains(doc, "of wall time in 1 session;") && !strings.Contains(doc, "of wall time in 1 session (the machine was shared") {
		t.Errorf("table 2 section does not count the one session that added the run:\n%s", doc)
	}
}

// Each run records the compiling it did, not its trainer's so far. In a
// cell trained one run at a time, GCN's first run compiles the epoch
// graphs and the others reuse them (0 graphs, 0 s); LW-GCN's later runs
// compile at most what the first did (on pure Go its label-wise ELL layouts
// follow each run's pseudo-labels and are rebuilt; on XLA it compiles once
// per cell, see lwgcn/parity's TestCellCompilesOnce), never the running
// total. In a batch of 3 the first run carries the batch's graphs and every
// run the same share of the time. The time-to-table line sums them.
func TestRunsRecordTheirOwnCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, batch := range []int{experiments.BatchAlone, 3} {
		spec := experiments.Spec{Experiment: "table2", ResultsPath: filepath.Join(dir, fmt.Sprintf("b%d", batch), "table2.json"),
			Datasets: []string{"texas"}, Methods: []string{"gcn", "lwgcn"}, MaxRuns: 3, Override: experiments.Overrides{Epochs: 2},
			DatasetOptions: dstest.Options(t), Command: "reproduce", Batch: batch}
		if err := os.MkdirAll(filepath.Dir(spec.ResultsPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := experiments.Run(context.Background(), b, info, spec); err != nil {
			t.Fatal(err)
		}
		f, err := results.Open(spec.ResultsPath)
		if err != nil {
			t.Fatal(err)
		}
		byModel := map[string][]results.Run{}
		for _, r := range f.Runs() {
			byModel[r.Model] = append(byModel[r.Model], r)
		}
		for _, m := range []string{"gcn", "lwgcn"} {
			runs := byModel[m]
			if len(runs) != 3 {
				t.Fatalf("batch %d, %s: %d runs, want 3", batch, m, len(runs))
			}
			total := 0
			for i, r := range runs {
				if r.Compiles == nil {
					t.Fatalf("batch %d, %s run %d records no compile count", batch, m, i)
				}
				total += *r.Compiles
				first, alone := i == 0, batch == experiments.BatchAlone
				var ok bool
				switch {
				case !alone: // one batch: the first run carries the graphs, all the same time share
					ok = first == (*r.Compiles > 0) && r.CompileSecs == runs[0].CompileSecs
				case first:
					ok = *r.Compiles > 0 && r.CompileSecs > 0
				case m == "gcn":
					ok = *r.Compiles == 0 && r.CompileSecs == 0
				default:
					ok = *r.Compiles <= *runs[0].Compiles
				}
				if !ok {
					t.Errorf("batch %d, %s run %d: %d graphs compiled in %.3f s (first run: %d in %.3f s)", batch, m, i,
						*r.Compiles, r.CompileSecs, *runs[0].Compiles, runs[0].CompileSecs)
				}
			}
			if m == "lwgcn" && total < 2 {
				t.Errorf("batch %d: LW-GCN compiled %d graphs, want f_P's and the main model's", batch, total)
			}
		}
		doc, err := table2Section(filepath.Dir(spec.ResultsPath))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc, "; compiling (in those times, apart from training): ") || !strings.Contains(doc, "over the 6 runs that recorded it") {
			t.Errorf("batch %d: no compile summary over the 6 runs in the time-to-table line:\n%s", batch, doc)
		}
	}
}

// The sweep's and the depth study's cells from hand-made runs: a sweep
// point is complete with its 10 splits (h read back as recorded, 0.3 as
// 0.30000000000000004 included); a depth cell is (dataset, method, layers).
func TestTimeToTableSweepAndDepth(t *testing.T) {
	var sweep []results.Run
	for s := range 10 {
		for _, h := range []float64{0.1 + 0.2, 0.5} {
			r := handRun("sweep", "chameleon", "gcn", s, "W", 2)
			r.Key = fmt.Sprintf("%s|h=%g", r.Key, h)
			r.Params = map[string]float64{"h": h, "degree": 10}
			if h == 0.5 && s == 9 {
				continue // one split short at h = 0.5
			}
			sweep = append(sweep, r)
		}
	}
	sweep = append(sweep, handRun("sweep", "csbm", "gcn", 0, "X", 1)) // another base: not counted
	sessions := []results.Session{{ID: "W", WallSecs: 40}, {ID: "X", WallSecs: 7}}
	got := SweepTimeToTable(sessions, sweep, "chameleon")
	want := fmt.Sprintf("Time-to-table: 40 s of wall time in 1 session; not complete (1 of %d cells have all their protocol runs).\n",
		len(experiments.SweepMethods)*len(experiments.SweepDegrees)*len(experiments.SweepHs))
	if got != want {
		t.Errorf("sweep: %q, want %q", got, want)
	}

	dir := t.TempDir()
	var depth []results.Run
	for s := range 10 {
		for _, l := range []int{2, 3} {
			r := handRun("depth", "texas", "gcn", s, "", 1.5)
			r.Key = fmt.Sprintf("%s|l=%d", r.Key, l)
			r.Params = map[string]float64{"layers": float64(l)}
			depth = append(depth, r)
		}
	}
	writeResults(t, filepath.Join(dir, "depth.json"), nil, depth)
	line, err := depthTimeToTable(dir, depth)
	if err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf("Time-to-table: 20 runs recorded before sessions: 30 s, the sum of their own training times "+
		"(total_secs; not wall time); not complete (2 of %d cells have all their protocol runs).\n",
		len(depthDatasets)*len(depthMethods)*len(experiments.DepthLayers))
	if line != want {
		t.Errorf("depth: %q, want %q", line, want)
	}
}

// Sessions of parallel processes overlap: the wall time is the union of
// their intervals, and the line also gives the sum. A: 11:00-11:10, B:
// 11:05-11:20, C: 12:00-12:01; D has no readable start and counts whole
// (30 s); E recorded no run of the table.
func TestTimeToTableParallelSessions(t *testing.T) {
	sessions := []results.Session{
		{ID: "A", Start: "2026-11-25T11:00:00Z", WallSecs: 600},
		{ID: "B", Start: "2026-11-25T11:05:00.5Z", WallSecs: 899.5},
		{ID: "C", Start: "2026-11-25T12:00:00Z", WallSecs: 60},
		{ID: "D", WallSecs: 30},
		{ID: "E", Start: "2026-11-25T11:00:00Z", WallSecs: 9999},
	}
	var runs []results.Run
	for s, id := range []string{"A", "A", "B", "B", "C", "D"} {
		runs = append(runs, handRun("t", "texas", "gcn", s, id, 1))
	}
	tt := computeTimeToTable(sessions, runs, []cell{{runs: runs, want: 10}})
	// Union: 11:00-11:20 (1200 s) + 60 s + D's 30 s; sum 600 + 899.5 + 60 + 30.
	if tt.WallSecs != 1290 || tt.SessionSecs != 1589.5 || tt.Sessions != 4 {
		t.Errorf("%+v: want wall 1290 s, summed 1589.5 s, 4 sessions", tt)
	}
	want := "Time-to-table: 21.5 min of wall time in 4 sessions, some of them in parallel (26.5 min summed over the sessions); " +
		"not complete (0 of 1 cells have all their protocol runs).\n"
	if got := tt.Markdown(); got != want {
		t.Errorf("markdown %q, want %q", got, want)
	}
}

// Runs on a GPU (another machine) are kept apart: the table's footer names
// the CPU runs' backend, a note lists the cells with GPU runs, and the
// time-to-table counts the GPU sessions (wall time, load, GOMAXPROCS)
// separately from the CPU ones.
func TestTimeToTableAccelerator(t *testing.T) {
	dir := t.TempDir()
	f64 := func(x float64) *float64 { return &x }
	sessions := []results.Session{
		{ID: "A", Start: "2026-01-01T00:00:00Z", WallSecs: 100, GOMAXPROCS: 2, Load1Start: f64(5)},
		{ID: "G1", Start: "2026-01-02T00:00:00Z", WallSecs: 60, GOMAXPROCS: 16, Load1Start: f64(20)},
		{ID: "G2", Start: "2026-01-02T00:00:00Z", WallSecs: 60, GOMAXPROCS: 16, Load1Start: f64(20)}}
	var runs []results.Run
	for s := range 10 {
		r := handRun("table2", "texas", "gcn", s, "A", 1)
		if s >= 5 {
			r.Session = map[bool]string{true: "G1", false: "G2"}[s < 8]
			r.Provenance = results.Provenance{Commit: "g", Backend: "xla:xla_cuda_plugin.so", NumCPU: 16, Machine: "Host",
				Date: "2026-01-02T00:01:00Z"}
		}
		runs = append(runs, r)
	}
	writeResults(t, filepath.Join(dir, "table2.json"), sessions, runs)
	f, err := results.Open(filepath.Join(dir, "table2.json"))
	if err != nil {
		t.Fatal(err)
	}
	sums := Summaries(f.Runs())
	cells, cellRuns := comparisonCells(sums, []string{"gcn"}, []string{"texas"})
	got := computeTimeToTable(f.Sessions(), cellRuns, cells)
	if got.Sessions != 1 || got.WallSecs != 100 || got.MaxLoad1 != 5 || got.MaxProcs != 2 || got.CompleteCells != 1 {
		t.Errorf("CPU part %+v, want session A alone (100 s, load 5, GOMAXPROCS 2) and the cell complete", got)
	}
	a := got.Accelerator
	if a == nil || a.Runs != 5 || a.Sessions != 2 || a.SessionSecs != 120 || a.WallSecs != 60 ||
		strings.Join(a.Backends, ",") != "xla:xla_cuda_plugin.so" {
		t.Fatalf("GPU part %+v, want 5 runs in 2 parallel sessions (60 s wall, 120 s summed)", a)
	}
	doc, err := table2Section(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"_commit c, backend go, 2026-01-01",
		"Runs on a GPU, another machine than the footer's (backend xla:xla_cuda_plugin.so on a host with 16 CPUs (Host)): " +
			"GCN on Texas (5 of 10 runs).",
		"Time-to-table: 1.7 min of wall time in 1 session (the machine was shared: load average up to 5.0 for " +
			"GOMAXPROCS 2); plus 5 runs on a GPU, another machine " +
			"(xla:xla_cuda_plugin.so): 1.0 min of wall time in 2 sessions, in parallel (2.0 min summed); not complete",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("table 2 section lacks %q; it has:\n%s", want, doc)
		}
	}
}

func TestOnAccelerator(t *testing.T) {
	for backend, want := range map[string]bool{"go": false, "xla:cpu": false, "xla:xla_cuda_plugin.so": true,
		"xla:cuda": true, "xla:rocm": true, "xla:tpu": true, "": false, "xla:xla_cuda_plugin.so,tf32=false": true,
		"xla:cpu,use_tfrt_gpu_client=true": false} {
		if got := (results.Provenance{Backend: backend}).OnAccelerator(); got != want {
			t.Errorf("backend %q: OnAccelerator %v, want %v", backend, got, want)
		}
	}
}

// A cell's ms per epoch keeps GPU runs apart from CPU ones.
func TestMsPerEpochText(t *testing.T) {
	run := func(backend string, ms float64) results.Run {
		return results.Run{MsPerEpoch: ms, Provenance: results.Provenance{Backend: backend}}
	}
	gpu := "xla:xla_cuda_plugin.so"
	for _, c := range []struct {
		runs []results.Run
		want string
	}{
		{[]results.Run{run("go", 400), run("go", 500)}, "450.0"},
		{[]results.Run{run(gpu, 10), run(gpu, 20)}, "15.0 (GPU)"},
		{[]results.Run{run("go", 400), run(gpu, 60), run("go", 500), run(gpu, 70)}, "450.0; GPU 65.0 (2 runs)"},
	} {
		s := &Summary{Runs: c.runs}
		for _, r := range c.runs {
			s.MsPerEpoch += r.MsPerEpoch / float64(len(c.runs))
		}
		if got := msPerEpochText(s); got != c.want {
			t.Errorf("ms per epoch %q, want %q", got, c.want)
		}
	}
}
