package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/gokernels"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

func init() {
	register(command{name: "bench-engine", summary: "A/B of the pure-Go engine: full LW-GCN epochs with lwgcn's kernels off and on (results/bench-engine.json)", run: runBenchEngine})
}

// engineVariant is one engine a block runs: a binary and its environment.
type engineVariant struct {
	name string
	bin  string
	env  []string
}

func runBenchEngine(args []string) error {
	fs := newFlagSet("bench-engine", "[flags]")
	names := fs.String("datasets", "texas,chameleon,squirrel,cora", "datasets whose full LW-GCN epoch is timed")
	procs := fs.String("procs", "1,2", "GOMAXPROCS values, comma-separated (each block is its own process)")
	blocks := fs.Int("blocks", 3, "alternating blocks per variant, dataset and thread count; the median is kept")
	benchTime := fs.Duration("benchtime", 3*time.Second, "minimum measuring time per block")
	var baselines baselineFlag
	fs.Var(&baselines, "baseline", "also time another lwgcn binary, as `[name=]path` (repeatable; without a name the variant is \"main\", e.g. a binary built from main before the patched engine)")
	out := fs.String("out", "", "output JSON (default results/bench-engine.json in the repository; \"-\" for stdout only)")
	data := addDataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *blocks < 1 || *benchTime <= 0 {
		return usageErrorf("-blocks and -benchtime must be positive, got %d and %s", *blocks, *benchTime)
	}
	threads, err := parseProcs(*procs)
	if err != nil {
		return err
	}
	datasetNames := splitList(*names)
	if len(datasetNames) == 0 {
		return usageErrorf("-datasets: no dataset")
	}
	path := *out
	if path == "" {
		root := buildinfo.SourceDir()
		if root == "" {
			return fmt.Errorf("not inside the lwgcn repository: pass -out")
		}
		path = filepath.Join(root, "results", "bench-engine.json")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	variants := []engineVariant{
		{name: "kernels off", bin: self, env: []string{gokernels.EnvAll + "=off"}},
		{name: "kernels on", bin: self, env: []string{gokernels.EnvAll + "=on"}},
	}
	for i := len(baselines) - 1; i >= 0; i-- {
		variants = append([]engineVariant{baselines[i]}, variants...)
	}
	var rows []results.EngineBench
	for _, ds := range datasetNames {
		for _, p := range threads {
			row := results.EngineBench{Dataset: ds, Threads: p, Blocks: *blocks}
			timings := make([][]results.EngineVariant, len(variants))
			for blk := range *blocks {
				for vi, v := range variants {
					t, err := engineBlock(v, ds, p, *benchTime, []string{"-mirror", *data.mirror, "-cache", *data.cache})
					if err != nil {
						return fmt.Errorf("%s, %d threads, %s: %w", ds, p, v.name, err)
					}
					fmt.Fprintf(os.Stderr, "%-10s GOMAXPROCS=%d block %d %-11s %8.2f ms/epoch (cpu %8.2f; other processes %.2f cores)\n",
						ds, p, blk+1, v.name, t.MsPerEpoch, t.CPUMs, t.OtherCores)
					timings[vi] = append(timings[vi], t)
				}
			}
			for vi, v := range variants {
				row.Variants = append(row.Variants, medianVariant(v.name, timings[vi]))
			}
			off, _ := row.Variant("kernels off")
			on, _ := row.Variant("kernels on")
			fmt.Printf("engine %-10s %d thread(s): kernels off %8.2f ms, on %8.2f ms: %.2fx\n", ds, p, off.MsPerEpoch, on.MsPerEpoch, off.MsPerEpoch/on.MsPerEpoch)
			rows = append(rows, row)
		}
	}
	return writeJSON(path, rows)
}

// baselineFlag collects -baseline's binaries: `path` is the variant "main",
// `name=path` its own variant (e.g. main before another change).
type baselineFlag []engineVariant

func (f *baselineFlag) String() string { return "" }

func (f *baselineFlag) Set(s string) error {
	name, bin, named := strings.Cut(s, "=")
	if !named {
		name, bin = "main", s
	}
	if name == "" || bin == "" {
		return fmt.Errorf("want [name=]path, got %q", s)
	}
	if strings.HasPrefix(name, "kernels ") {
		return fmt.Errorf("%q: the names \"kernels off\" and \"kernels on\" are this binary's", name)
	}
	for _, v := range *f {
		if v.name == name {
			return fmt.Errorf("variant %q given twice", name)
		}
	}
	if _, err := os.Stat(bin); err != nil {
		return err
	}
	*f = append(*f, engineVariant{name: name, bin: bin})
	return nil
}

// parseProcs parses a comma-separated list of positive thread counts.
func parseProcs(s string) ([]int, error) {
	var ps []int
	for _, f := range splitList(s) {
		p, err := strconv.Atoi(f)
		if err != nil || p < 1 {
			return nil, usageErrorf("-procs: %q is not a positive integer", f)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil, usageErrorf("-procs: no thread count")
	}
	return ps, nil
}

// engineBlock runs `bench -lwgcn ds -lwgcn-only -out -` in a child process
// with the variant's binary and environment at GOMAXPROCS=p and reads its
// row (the last line of its output), with the other processes' CPU use
// while it ran.
func engineBlock(v engineVariant, ds string, p int, benchTime time.Duration, dataArgs []string) (results.EngineVariant, error) {
	args := append([]string{"bench", "-lwgcn", ds, "-lwgcn-only", "-benchtime", benchTime.String(), "-out", "-"}, dataArgs...)
	cmd := exec.Command(v.bin, args...)
	cmd.Env = append(append(withoutKernelSwitches(os.Environ()), fmt.Sprintf("GOMAXPROCS=%d", p)), v.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start, err := results.SampleCPU()
	if err != nil {
		return results.EngineVariant{}, err
	}
	if err := cmd.Run(); err != nil {
		return results.EngineVariant{}, fmt.Errorf("%s %s: %w\n%s", v.bin, strings.Join(args, " "), err, lastLines(stderr.String(), 5))
	}
	end, err := results.SampleCPU()
	if err != nil {
		return results.EngineVariant{}, err
	}
	last, other := childResult(stdout.Bytes())
	os.Stderr.Write(other)
	var got []results.EpochBench
	if err := json.Unmarshal(last, &got); err != nil || len(got) != 1 {
		return results.EngineVariant{}, fmt.Errorf("reading the block's row %q: %v", last, err)
	}
	child := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return results.EngineVariant{Name: v.name, MsPerEpoch: got[0].MsPerEpoch, CPUMs: got[0].CPUMs,
		OtherCores: start.OtherCoresExcluding(end, child.Seconds()), Provenance: got[0].Provenance}, nil
}

// medianVariant keeps the block with the median ms per epoch (its CPU time
// and provenance), the busiest block's other cores, and every block's time.
func medianVariant(name string, ts []results.EngineVariant) results.EngineVariant {
	sorted := slices.Clone(ts)
	slices.SortFunc(sorted, func(a, b results.EngineVariant) int { return cmpFloat(a.MsPerEpoch, b.MsPerEpoch) })
	m := sorted[len(sorted)/2]
	m.Name = name
	m.BlockMs = nil
	for _, t := range ts {
		m.BlockMs = append(m.BlockMs, t.MsPerEpoch)
		m.OtherCores = max(m.OtherCores, t.OtherCores)
	}
	return m
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// withoutKernelSwitches drops the kernels' switches (LWGCN_KERNELS,
// LWGCN_KERNEL_<NAME>) from env: each variant runs with its own, and a
// baseline binary with none.
func withoutKernelSwitches(env []string) []string {
	var out []string
	for _, e := range env {
		if name, _, _ := strings.Cut(e, "="); name == gokernels.EnvAll || strings.HasPrefix(name, "LWGCN_KERNEL_") {
			continue
		}
		out = append(out, e)
	}
	return out
}
