package report

import (
	"fmt"
	"path/filepath"
	"slices"
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
	rows, ok, err := readBench(dir, "bench-engine", results.ReadEngineBench)
	if !ok {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Speed: the pure-Go engine with and without lwgcn's kernels\n\n")
	b.WriteString("lwgcn builds compute v0.1.14 from third_party/ with patches that make the Go backend's\n")
	b.WriteString("extension points public; lwgcn's kernels (lwgcn/gokernels, each tested bit-identical to the backend's\n")
	b.WriteString("own ops) use them. `lwgcn bench-engine` times one full LW-GCN epoch (reference settings) with every\n")
	b.WriteString("kernel off (compute's own ops, with patch 0003's smaller work channel for its matrix products) and on, in alternating\n")
	b.WriteString("child processes, each a block of `lwgcn bench -lwgcn-only`; the median block is kept. `main` is a\n")
	b.WriteString("binary built from main before the patched engine, when given with `-baseline`; another named\n")
	b.WriteString("baseline (`-baseline name=path`, e.g. main before the one-trainer refactor) gets columns of its own,\n")
	b.WriteString("its ms and its ratio to kernels on. The goals are the fused-kernels issue's: at one thread a\n")
	b.WriteString("speed-up over main, at two threads ms per epoch on the 2-core AMD host. *Other cores* is the busiest block's CPU use by other processes (about 0 on an\n")
	b.WriteString("idle machine; above a few tenths the times include waiting for a core).\n\n")
	table, err := engineTable(filepath.Join(dir, "bench-engine.json"), rows)
	if err != nil {
		return "", err
	}
	b.WriteString(table)
	// The same A/B run on other hosts (results/bench-engine-<host>.json).
	more, err := otherHostFiles(dir, "bench-engine", results.ReadEngineBench, func(path string, rows []results.EngineBench) (string, error) {
		table, err := engineTable(path, rows)
		return fmt.Sprintf("\nThe same A/B in another run (results/%s; host in its footer):\n\n%s", filepath.Base(path), table), err
	})
	if err != nil {
		return "", err
	}
	b.WriteString(more)
	return b.String(), nil
}

// engineTable is one bench-engine file's table (path names it in errors)
// and its provenance footer.
func engineTable(path string, rows []results.EngineBench) (string, error) {
	var b strings.Builder
	// Other baselines (-baseline name=path: main before a later change) get
	// their own columns, in the order they first appear.
	var extra []string
	for _, r := range rows {
		for _, v := range r.Variants {
			if v.Name != "main" && v.Name != "kernels off" && v.Name != "kernels on" && !slices.Contains(extra, v.Name) {
				extra = append(extra, v.Name)
			}
		}
	}
	b.WriteString("| dataset | threads | main ms | kernels off ms | kernels on ms | off / on | main / on | goal | met |")
	for _, name := range extra {
		fmt.Fprintf(&b, " %s ms | %s / on |", name, name)
	}
	b.WriteString(" other cores |\n|---|---:|---:|---:|---:|---:|---:|---:|:-:|" + strings.Repeat("---:|---:|", len(extra)) + "---:|\n")
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
		fmt.Fprintf(&b, "| %s | %d | %s | %.2f | %.2f | %.2fx | %s | %s | %s |", experiments.DatasetTitle(r.Dataset), r.Threads,
			mainMs, off.MsPerEpoch, on.MsPerEpoch, off.MsPerEpoch/on.MsPerEpoch, mainRatio, goal, met)
		for _, name := range extra {
			if v, ok := r.Variant(name); ok {
				fmt.Fprintf(&b, " %.2f | %.2fx |", v.MsPerEpoch, v.MsPerEpoch/on.MsPerEpoch)
				others = max(others, v.OtherCores)
			} else {
				b.WriteString(" – | – |")
			}
		}
		fmt.Fprintf(&b, " %.2f |\n", others)
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
