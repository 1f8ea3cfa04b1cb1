package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// EngineGoals are the fused-kernels issue's goals for a full LW-GCN epoch
// on the pure-Go backend: a speed-up over today's main at one thread, and
// ms per epoch at two threads on the 2-core AMD host.
var EngineGoals = map[string]struct {
	SpeedupOneThread float64
	MsTwoThreads     float64
}{
	"texas": {2, 7}, "chameleon": {2.5, 12}, "squirrel": {2.5, 110}, "cora": {2.5, 95},
}

// engineSection renders results/bench-engine.json: `lwgcn bench-engine`'s
// A/B of lwgcn's kernels (third_party/README.md) on full LW-GCN epochs.
func engineSection(dir string) (string, error) {
	path := filepath.Join(dir, "bench-engine.json")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	rows, err := results.ReadEngineBench(path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Speed: the pure-Go engine with and without lwgcn's kernels\n\n")
	b.WriteString("lwgcn builds compute v0.1.14 from third_party/ with one patch that makes the Go backend's\n")
	b.WriteString("extension points public; lwgcn's kernels (lwgcn/gokernels, each tested bit-identical to the backend's\n")
	b.WriteString("own ops) use them. `lwgcn bench-engine` times one full LW-GCN epoch (reference settings) with every\n")
	b.WriteString("kernel off (compute's own ops: the engine of the commits before the patch) and on, in alternating\n")
	b.WriteString("child processes, each a block of `lwgcn bench -lwgcn-only`; the median block is kept. `main` is a\n")
	b.WriteString("binary built from main before the patched engine, when given with `-baseline`. The goals are the\n")
	b.WriteString("fused-kernels issue's: at one thread a speed-up over main, at two threads ms per epoch on the\n")
	b.WriteString("2-core AMD host. *Other cores* is the busiest block's CPU use by other processes (about 0 on an\n")
	b.WriteString("idle machine; above a few tenths the times include waiting for a core).\n\n")
	b.WriteString("| dataset | threads | main ms | kernels off ms | kernels on ms | off / on | main / on | goal | met | other cores |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|:-:|---:|\n")
	var provs []string
	for _, r := range rows {
		off, okOff := r.Variant("kernels off")
		on, okOn := r.Variant("kernels on")
		if !okOff || !okOn {
			return "", fmt.Errorf("%s: %s, %d threads: needs the variants \"kernels off\" and \"kernels on\"", path, r.Dataset, r.Threads)
		}
		main, okMain := r.Variant("main")
		mainMs, mainRatio := "–", "–"
		base := off.MsPerEpoch // without a baseline binary, kernels off stands for main
		if okMain {
			mainMs, mainRatio, base = fmt.Sprintf("%.2f", main.MsPerEpoch), fmt.Sprintf("%.2fx", main.MsPerEpoch/on.MsPerEpoch), main.MsPerEpoch
		}
		goal, met := "–", "–"
		if g, ok := EngineGoals[r.Dataset]; ok {
			switch r.Threads {
			case 1:
				goal, met = fmt.Sprintf("≥ %gx", g.SpeedupOneThread), yesNo(base/on.MsPerEpoch >= g.SpeedupOneThread)
			case 2:
				goal, met = fmt.Sprintf("≤ %g ms", g.MsTwoThreads), yesNo(on.MsPerEpoch <= g.MsTwoThreads)
			}
		}
		others := max(off.OtherCores, on.OtherCores, main.OtherCores)
		fmt.Fprintf(&b, "| %s | %d | %s | %.2f | %.2f | %.2fx | %s | %s | %s | %.2f |\n", experiments.DatasetTitle(r.Dataset), r.Threads,
			mainMs, off.MsPerEpoch, on.MsPerEpoch, off.MsPerEpoch/on.MsPerEpoch, mainRatio, goal, met, others)
		if p := on.Provenance.String(); !strings.Contains(strings.Join(provs, "\n"), p) {
			provs = append(provs, p)
		}
	}
	b.WriteString("\n" + strings.Join(provs, "; ") + "\n")
	return b.String(), nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
