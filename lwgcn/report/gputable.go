package report

import (
	"fmt"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// gpuTable2Datasets are the datasets of xla/gpu-check.sh's Table 2 column.
var gpuTable2Datasets = []string{"texas", "chameleon", "squirrel", "cora"}

// GPUTable2Markdown renders (for docs/RESULTS.md and notebook 05) Table 2's
// LW-GCN row recorded on a GPU machine
// (results/table2-gpu.json, xla/gpu-check.sh step 3) beside the same cells
// on the CPU (results/table2.json) and the paper, with each cell's speed:
// the batch's ms per epoch and per split-epoch, its compile time and graphs
// compiled, and the column's time-to-table. "" when the file is absent.
func GPUTable2Markdown(dir string) (string, error) {
	runs, err := openRuns(dir, "table2-gpu")
	if err != nil || len(runs) == 0 {
		return "", err
	}
	cpuRuns, err := openRuns(dir, "table2")
	if err != nil {
		return "", err
	}
	gpu, cpu := Summaries(runs), Summaries(cpuRuns)
	t := plot.NewTable("").Header("dataset", "runs", "GPU test acc", "CPU test acc", "paper", "runs per computation",
		"ms/epoch", "ms per split-epoch", "compile s", "graphs compiled", "wall s")
	for _, d := range gpuTable2Datasets {
		s := gpu["lwgcn"][d]
		if s == nil {
			t.Row(plot.Text(experiments.DatasetTitle(d)), plot.Text("not run"))
			continue
		}
		batch, compile, graphs, wall := 1, 0.0, 0, 0.0
		for _, r := range s.Runs {
			batch = max(batch, r.BatchRuns)
			compile += r.CompileSecs
			wall += r.TotalSecs
			if r.Compiles != nil {
				graphs += *r.Compiles
			}
		}
		cpuCell := plot.Text("not run")
		if c := cpu["lwgcn"][d]; c != nil {
			cpuCell = plot.MeanStd(c.Acc.Mean, c.Acc.Std, 1)
		}
		paperCell := plot.Text("–")
		if p, ok := paper.Table2["lwgcn"][d]; ok {
			paperCell = plot.MeanStd(p.Mean, p.Std, 1)
		}
		t.Row(plot.Text(experiments.DatasetTitle(d)), plot.Num(float64(len(s.Runs)), 0), plot.MeanStd(s.Acc.Mean, s.Acc.Std, 1), cpuCell,
			paperCell, plot.Num(float64(batch), 0), plot.Num(s.MsPerEpoch, 2), plot.Num(s.MsPerEpoch/float64(batch), 2),
			plot.Num(compile, 1), plot.Num(float64(graphs), 0), plot.Num(wall, 1))
	}
	ttt, err := comparisonTimeToTable(dir, gpu, []string{"lwgcn"}, gpuTable2Datasets, "table2-gpu")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Table 2's LW-GCN row on a GPU\n\n")
	b.WriteString("`lwgcn reproduce table2 -methods lwgcn -batch 10` on a lent GPU machine (xla/gpu-check.sh step 3, XLA\n")
	b.WriteString("CUDA with `tf32=false`; results/table2-gpu.json): a dataset's runs train together in one\n")
	b.WriteString("computation, one executable per dataset. Beside it the same cells on the CPU (Table 2 above) and the\n")
	b.WriteString("paper. ms/epoch is the whole batch's epoch; a split-epoch is that divided by the runs in it. Compile\n")
	b.WriteString("and wall time are the cell's (its runs' shares summed); wall time includes the compile. XLA's GPU\n")
	b.WriteString("autotuning level changes the compile (xla/README.md, \"GPU\"): records made since lwgcn sets it\n")
	b.WriteString("carry XLA_FLAGS in their provenance.\n\n")
	b.WriteString(t.Markdown())
	fmt.Fprintf(&b, "\n%s\n\n%s", figures.ProvenanceLine(runs), ttt)
	return b.String(), nil
}
