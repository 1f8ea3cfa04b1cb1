package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// PyTorchThreadsMs are the authors' PyTorch code's full LW-GCN epoch, ms,
// at one and two threads, measured side by side with ours on this kind of
// machine (2-core AMD EPYC; issue 15's table, median of 3 blocks).
var PyTorchThreadsMs = figures.PyTorchThreads{
	"texas": {19.4, 18.3}, "chameleon": {393, 284}, "squirrel": {1757, 1156}, "cora": {527, 512},
}

// backendFiles are the result files of the two-backend accuracy comparison:
// `lwgcn train ... -results results/backends-<backend>.json`.
var backendFiles = []struct{ file, title string }{
	{"backends-go", "pure Go"},
	{"backends-xla", "XLA CPU"},
}

var speedDatasets = []string{"texas", "chameleon", "squirrel", "cora"}

// backendsSection renders the two-backend comparison: LW-GCN's accuracy on
// each backend (results/backends-*.json) and the speed table
// (results/bench-backends.json), and the same timings on a GPU machine
// (results/bench-gpu.json) when it has been measured there.
func backendsSection(dir string) (string, error) {
	acc, err := backendAccuracy(dir)
	if err != nil {
		return "", err
	}
	rows, err := results.ReadBackendBench(filepath.Join(dir, "bench-backends.json"))
	if err != nil {
		return "", err
	}
	gpu, err := results.ReadBackendBench(filepath.Join(dir, "bench-gpu.json"))
	if err != nil {
		return "", err
	}
	more, err := otherHostBackends(dir)
	if err != nil {
		return "", err
	}
	if acc == "" && len(rows) == 0 && len(gpu) == 0 && more == "" {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("## Backends: pure Go and XLA\n\n")
	b.WriteString("The same code on GoMLX's pure-Go backend and on XLA (the CPU PJRT plugin `make xla` installs from\n")
	b.WriteString("PyPI, see xla/README.md). The parity suite (`lwgcn/parity`, part of `make test`) checks every model's\n")
	b.WriteString("output and parameter gradients agree within float32 tolerance; here are full runs and timings.\n")
	if acc != "" {
		b.WriteString("\n" + acc)
	}
	if len(rows) > 0 {
		b.WriteString("\n### Speed per backend\n\n")
		b.WriteString("`lwgcn bench -backends go,xla:cpu` (two threads) and `taskset -c 0 env GOMAXPROCS=1 lwgcn bench\n")
		b.WriteString("-backends go,xla:cpu` (one thread). `lwgcn-epoch` is one full LW-GCN epoch on the real dataset\n")
		b.WriteString("(reference settings); the other cases are one training epoch of a layer stack on a random graph\n")
		b.WriteString("of the dataset's size (`lwgcn bench -list`). ms/epoch is the steady state after a warm-up epoch;\n")
		b.WriteString("compile is the one-time graph build and compilation, apart. Threads: Go runs GOMAXPROCS threads;\n")
		b.WriteString("XLA CPU runs its own pool, one thread per CPU the process may use (its affinity mask), so both\n")
		b.WriteString("use the stated number. PyTorch is the authors' code at the same number of threads (issue 15's\n")
		b.WriteString("side-by-side measurement); PyTorch ÷ backend above 1 means faster than PyTorch. Peak RSS is\n")
		b.WriteString("the process's resident-memory high-water mark, reset before each case; the cases of one backend\n")
		b.WriteString("run in one process, so on XLA it includes the 200 MB plugin and what earlier cases' compiled\n")
		b.WriteString("executables still hold, and overstates one case run alone.\n\n")
		b.WriteString(backendShareNote(rows, true) + "\n\n")
		b.WriteString(figures.BackendSpeedTable("", rows, PyTorchThreadsMs, experiments.DatasetTitle, speedDatasets).Markdown())
		b.WriteString(compileTable(rows))
	}
	b.WriteString(more)
	if len(gpu) == 0 {
		if len(rows) > 0 {
			b.WriteString("\nGPU (XLA CUDA): no timings (`lwgcn bench` has not been run on a GPU); xla/README.md lists the steps.\n")
		}
		return b.String(), nil
	}
	b.WriteString("\n### Speed on a GPU machine\n\n")
	b.WriteString("`lwgcn bench -backends go,xla:/abs/path/xla_cuda_plugin.so,tf32=false -out results/bench-gpu.json` on a\n")
	b.WriteString("lent GPU machine (xla/README.md), the process pinned to two of the host's CPUs (`taskset -c 0,1`,\n")
	b.WriteString("GOMAXPROCS=2): `go` is the pure-Go backend on that host's CPU, the XLA column the GPU. Another\n")
	b.WriteString("machine than the tables above (the footer names its CPU), so no ratio to PyTorch here (PyG on the\n")
	b.WriteString("same GPU: \"Speed: against PyTorch Geometric\" above). A case \"not run\" on a backend was not measured in\n")
	b.WriteString("the device time lent. The compile column is once per graph (a cell's runs share it: see the GPU Table 2\n")
	b.WriteString("row below). XLA's own GPU autotuning is off unless XLA_FLAGS sets it (backend.GPUAutotuneLevel; the\n")
	b.WriteString("A/B is in xla/README.md, \"GPU\"); the footer gives each row's XLA_FLAGS.\n\n")
	b.WriteString(backendShareNote(gpu, false) + "\n\n")
	b.WriteString(figures.BackendSpeedTable("", gpu, nil, experiments.DatasetTitle, speedDatasets).Markdown())
	b.WriteString(compileTable(gpu))
	return b.String(), nil
}

// otherHostBackends renders the same timings recorded on other hosts
// (results/bench-backends-<host>.json), each a table of its own: timings
// are compared within one run only, and without PyTorch's columns, which
// were measured beside the main table's host.
func otherHostBackends(dir string) (string, error) {
	return otherHostFiles(dir, "bench-backends", results.ReadBackendBench, func(path string, rows []results.BackendBench) (string, error) {
		if len(rows) == 0 {
			return "", nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "\nThe same cases in another run (results/%s; its host in the footer; no PyTorch columns,\n", filepath.Base(path))
		b.WriteString("which were measured on the host above):\n\n")
		b.WriteString(backendShareNote(rows, false) + "\n\n")
		b.WriteString(figures.BackendSpeedTable("", rows, nil, experiments.DatasetTitle, speedDatasets).Markdown())
		b.WriteString(compileTable(rows))
		return b.String(), nil
	})
}

// longestCompile is a row's longest single-graph compile time, "–" when
// not recorded.
func longestCompile(r results.BackendBench) plot.Cell {
	if r.LongestCompileSecs <= 0 {
		return plot.Text("–")
	}
	return plot.Num(r.LongestCompileSecs, 2)
}

// compileTable lists, per backend and dataset, what the full LW-GCN epoch
// compiled: its compile time, the number of graphs compiled (the epoch's
// executables), the epoch graph's op count and, on XLA, the size of its
// StableHLO program; "" when no row recorded them (files written before
// they were).
func compileTable(rows []results.BackendBench) string {
	t := plot.NewTable("").Header("dataset", "backend", "threads", "compile s", "graphs", "longest graph s", "epoch ops", "StableHLO KiB")
	n, old := 0, false
	for _, ds := range speedDatasets {
		for _, r := range rows {
			if r.Dataset != ds || r.Case != results.CaseEpoch || r.Compiles == 0 {
				continue
			}
			old = old || r.Compiles == oldEpochGraphs
			t.Row(plot.Text(experiments.DatasetTitle(ds)), plot.Text(r.Backend), plot.Num(float64(r.Threads()), 0),
				plot.Num(r.CompileSecs, 2), plot.Num(float64(r.Compiles), 0), longestCompile(r), plot.Num(float64(r.EpochOps), 0), hloKiB(r))
			n++
		}
	}
	if n == 0 {
		return ""
	}
	note := ""
	if old {
		note = "\nRows with 3 graphs were recorded while the first epoch had a step graph of its own (now the\n" +
			"step graph runs it with the epoch's end switched off: 2 graphs); their op count and StableHLO size\n" +
			"are those of the evaluation graph, not of the training step (xla/README.md compares the two).\n"
	}
	return "\nCompilation of the full LW-GCN epoch (main model): compile time, graphs compiled (the epoch's\n" +
		"executables), the longest of them alone (– in rows recorded before it was), the epoch graph's op\n" +
		"count (graph nodes before the backend's own fusion, autodiff's included) and, on XLA, the size of the\n" +
		"StableHLO program it was compiled from (– on pure Go, which compiles none, and in rows recorded\n" +
		"before it was measured).\n\n" + t.Markdown() + note
}

// oldEpochGraphs is the number of graphs a full LW-GCN epoch compiled
// before the first epoch's own step graph was dropped; such rows recorded
// the evaluation graph's op count and program size.
const oldEpochGraphs = 3

// hloKiB is an XLA row's StableHLO program size in KiB, "–" where none was
// recorded.
func hloKiB(r results.BackendBench) plot.Cell {
	if r.EpochHLOBytes == 0 {
		return plot.Text("–")
	}
	return plot.Num(float64(r.EpochHLOBytes)/1024, 0)
}

// sharedCores is the average number of other processes' busy cores above
// which a block of timings counts as taken on a shared machine.
const sharedCores = 0.25

// backendShareNote says whether the machine was idle while the backend
// timings were taken, from each block's recorded OtherCores, so that a
// reader knows how far the wall times (and the ratios to PyTorch, measured
// on an idle machine) can be trusted.
// vsPyTorch says whether the table divides PyTorch's times by these.
func backendShareNote(rows []results.BackendBench, vsPyTorch bool) string {
	type block struct {
		backend string
		threads int
	}
	// A block's figure is its busiest row's (rows record the other
	// processes' CPU use during their own timing; older files, one figure
	// per block).
	var order []block
	busiest := map[block]*float64{}
	for _, r := range rows {
		k := block{r.Backend, r.Threads()}
		cur, seen := busiest[k]
		if !seen {
			order = append(order, k)
		}
		if r.OtherCores != nil && (cur == nil || *r.OtherCores > *cur) {
			cur = r.OtherCores
		}
		busiest[k] = cur
	}
	var unknown, shared []string
	worst := 0.0
	for _, k := range order {
		name := fmt.Sprintf("%s at %d threads", k.backend, k.threads)
		if k.threads == 1 {
			name = k.backend + " at 1 thread"
		}
		others := busiest[k]
		switch {
		case others == nil:
			unknown = append(unknown, name)
		case *others > sharedCores:
			shared = append(shared, fmt.Sprintf("%s: %.2f cores", name, *others))
		}
		if others != nil {
			worst = max(worst, *others)
		}
	}
	slices.Sort(unknown)
	slices.Sort(shared)
	var notes []string
	if len(shared) > 0 {
		ratios := ""
		if vsPyTorch {
			ratios = " and their ratios to PyTorch (measured on an idle machine) understate ours"
		}
		notes = append(notes, fmt.Sprintf("**The machine was shared while some of these were measured**: other processes "+
			"kept more than a quarter of a core busy on average (%s), so those wall times include waiting for a core%s; "+
			"the CPU time in parentheses is the steadier comparison there.", strings.Join(shared, "; "), ratios))
	}
	if len(unknown) > 0 {
		notes = append(notes, fmt.Sprintf("Whether the machine was idle was not recorded for %s (timings from "+
			"before `other_cores` was recorded); trust their wall times only as far as a re-run on an idle machine confirms.",
			strings.Join(unknown, ", ")))
	}
	if len(shared) == 0 && len(unknown) == 0 {
		notes = append(notes, fmt.Sprintf("Measured on an otherwise idle machine: other processes kept at most %.2f "+
			"cores busy on average during each backend's timings (from /proc/stat, less the benchmark's own CPU time).", worst))
	}
	notes = append(notes, "A case absent from the table, or \"not run\" on one backend, was not measured.")
	return strings.Join(notes, " ")
}

// backendAccuracy is the LW-GCN accuracy table per dataset and backend.
func backendAccuracy(dir string) (string, error) {
	type cell struct {
		stat results.Stat
		prov results.Provenance
	}
	found := false
	cells := map[string]map[string]cell{} // dataset -> file -> cell
	var datasets []string
	for _, f := range backendFiles {
		runs, err := openRuns(dir, f.file)
		if err != nil {
			return "", err
		}
		found = found || len(runs) > 0
		byDataset := map[string][]float64{}
		provs := map[string]results.Provenance{}
		for _, r := range runs {
			if r.Model != "lwgcn" {
				continue
			}
			byDataset[r.Dataset] = append(byDataset[r.Dataset], 100*r.TestAcc)
			if r.Provenance.Date >= provs[r.Dataset].Date {
				provs[r.Dataset] = r.Provenance
			}
		}
		for d, accs := range byDataset {
			if cells[d] == nil {
				cells[d] = map[string]cell{}
				datasets = append(datasets, d)
			}
			cells[d][f.file] = cell{results.MeanStd(accs), provs[d]}
		}
	}
	if !found {
		return "", nil
	}
	sortByOrder(datasets, experiments.Table2Datasets)
	var b strings.Builder
	b.WriteString("### LW-GCN accuracy per backend\n\n")
	b.WriteString("`GOMLX_BACKEND=<backend> lwgcn train -dataset <d> -model lwgcn -splits 0-9 -results\n")
	b.WriteString("results/backends-<go|xla>.json`, reference settings, seed 15. The backends draw different dropout\n")
	b.WriteString("masks (each has its own random generator), so runs with dropout differ split by split and the means\n")
	b.WriteString("should agree within the spread (Texas). Chameleon's dense f_C has no dropout: both backends give the\n")
	b.WriteString("same accuracy on every split.\n\n")
	b.WriteString("| dataset |")
	for _, f := range backendFiles {
		b.WriteString(" " + f.title + " |")
	}
	b.WriteString(" paper | XLA − Go |\n|---|")
	for range backendFiles {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---:|\n")
	var provLines []string
	for _, d := range datasets {
		fmt.Fprintf(&b, "| %s |", experiments.DatasetTitle(d))
		for _, f := range backendFiles {
			c, ok := cells[d][f.file]
			if !ok {
				b.WriteString(" not run |")
				continue
			}
			fmt.Fprintf(&b, " %.1f ± %.1f (%d runs) |", c.stat.Mean, c.stat.Std, c.stat.N)
			provLines = append(provLines, fmt.Sprintf("%s on %s: %s", f.title, experiments.DatasetTitle(d), c.prov))
		}
		if p, ok := paper.Table2[paper.LWGCN][d]; ok && !p.OOM {
			fmt.Fprintf(&b, " %.1f ± %.1f |", p.Mean, p.Std)
		} else {
			b.WriteString(" – |")
		}
		g, okG := cells[d]["backends-go"]
		x, okX := cells[d]["backends-xla"]
		if okG && okX {
			fmt.Fprintf(&b, " %+.1f |\n", x.stat.Mean-g.stat.Mean)
		} else {
			b.WriteString(" – |\n")
		}
	}
	b.WriteString("\n" + strings.Join(provLines, ".  \n") + ".\n")
	return b.String(), nil
}

// sortByOrder sorts names by their position in order (others last, by name).
func sortByOrder(names, order []string) {
	rank := func(s string) int {
		for i, o := range order {
			if o == s {
				return i
			}
		}
		return len(order)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			ri, rj := rank(names[i]), rank(names[j])
			if rj < ri || (rj == ri && names[j] < names[i]) {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
}
