package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/report"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

func init() {
	register(command{name: "bench-batched", summary: "time a split-epoch with runs batched in one computation and alone (results/bench-batched.json)", run: runBenchBatched})
}

// benchedLWGCN describes -model lwgcn.
const benchedLWGCN = "full LW-GCN epoch (f_C and f_G forward, backward and update, evaluation and selection step; reference settings)"

// benchedModel describes a -model choice: "lwgcn" or any zoo model, timed
// with the zoo's reference settings for the dataset on the graph the entry
// trains on; false for anything else.
func benchedModel(name string) (string, bool) {
	if name == "lwgcn" {
		return benchedLWGCN, true
	}
	e, ok := zoo.Lookup(name)
	return e.Title + " epoch (the zoo's reference settings for the dataset)", ok
}

// benchZooModel builds a -model that is timed with the zoo's reference
// settings: the model, its graph (Entry.Prepare: GCN's symmetrised edges,
// as training has them) and its training configuration.
func benchZooModel(name string, g *graph.Graph, ds string) (nn.Model, *graph.Graph, zoo.Hyper, zoo.Training, error) {
	e, ok := zoo.Lookup(name)
	if !ok {
		return nil, nil, zoo.Hyper{}, zoo.Training{}, fmt.Errorf("bench-batched: no zoo model %q", name)
	}
	h := e.Defaults(ds)
	m, tr, err := e.Build(h)
	if err != nil {
		return nil, nil, h, tr, err
	}
	return m, e.Prepare(g, h), h, tr, nil
}

// blockTiming is what one measuring process reports.
type blockTiming struct {
	Runs    int     `json:"runs"`
	Epochs  int     `json:"epochs"`
	Ms      float64 `json:"ms_per_split_epoch"`
	CPUMs   float64 `json:"cpu_ms_per_split_epoch"`
	PeakRSS uint64  `json:"peak_rss_bytes"`
}

func runBenchBatched(args []string) error {
	fs := newFlagSet("bench-batched", "[flags]")
	names := fs.String("datasets", "texas,chameleon,squirrel,cora", "datasets, comma-separated")
	modelName := fs.String("model", "lwgcn", `what one epoch trains: "lwgcn" (the full method, reference settings) or a zoo model (`+strings.Join(zoo.Names(), ", ")+`)`)
	procs := fs.String("procs", "1,2", "GOMAXPROCS values, comma-separated (each measured in its own processes)")
	runs := fs.Int("runs", 10, "runs per batch (splits 0.. of the dataset, seeds 15..)")
	blocks := fs.Int("blocks", 3, "alternating blocks (batched, alone) per dataset and thread count; the median is kept")
	minTime := fs.Duration("benchtime", 2*time.Second, "minimum measuring time per block")
	note := fs.String("note", "", "measurement conditions recorded with the results (e.g. a shared machine)")
	out := fs.String("out", "", "output JSON (default results/bench-batched.json in the repository; \"-\" for stdout)")
	child := fs.String("child", "", "internal: measure one block (\"batched\" or \"alone\") of -datasets' first dataset and print it")
	data := addDataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *runs < 1 || *blocks < 1 {
		return fmt.Errorf("-runs and -blocks must be positive, got %d and %d", *runs, *blocks)
	}
	if *runs > maxBatchedRuns || *blocks > maxBatchedBlocks {
		return usageErrorf("-runs %d, -blocks %d: at most %d runs per batch and %d blocks", *runs, *blocks, maxBatchedRuns, maxBatchedBlocks)
	}
	if *minTime <= 0 {
		return usageErrorf("-benchtime %v: must be > 0", *minTime)
	}
	dsList := strings.Split(*names, ",")
	if err := checkNameFlags("datasets", dsList, nil); err != nil {
		return err
	}
	about, ok := benchedModel(*modelName)
	if !ok {
		return fmt.Errorf("-model %q: want lwgcn or one of %s", *modelName, strings.Join(zoo.Names(), ", "))
	}
	if *child != "" {
		t, err := measureBlock(*child, *modelName, dsList[0], *runs, *minTime, data)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(t)
	}
	var procList []int
	for _, p := range strings.Split(*procs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return fmt.Errorf("-procs: %q is not a positive integer", p)
		}
		if n > runtime.NumCPU() {
			return usageErrorf("-procs: %d threads, more than the %d CPUs", n, runtime.NumCPU())
		}
		procList = append(procList, n)
	}
	path := *out
	if path == "" {
		root := buildinfo.SourceDir()
		if root == "" {
			return errors.New("not inside the lwgcn repository: pass -out")
		}
		path = filepath.Join(root, "results", "bench-batched.json")
	}
	if err := checkOutput("-out", path, jsonOf("a batched benchmark (bench-batched.json)", func(data []byte) error {
		_, err := report.ParseBatchedBench(path, data)
		return err
	})); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("%w", err)
	}
	_, info, err := backend.Shared()
	if err != nil {
		return err
	}
	if n := authorsHostNote(info.IsGo(), buildinfo.Get().Vector); n != "" {
		fmt.Println(n)
	}
	// Rows of other models, datasets or thread counts already recorded are kept.
	file := report.BatchedBenchFile{}
	if _, err := os.Stat(path); err == nil {
		old, err := report.ReadBatchedBench(path)
		if err != nil {
			return err
		}
		file = *old
		file.Rows = slices.DeleteFunc(file.Rows, func(r report.BatchedBenchRow) bool {
			return r.Model == *modelName && slices.Contains(dsList, r.Dataset) && slices.Contains(procList, r.Procs)
		})
	}
	if file.Models == nil {
		file.Models, file.Notes = map[string]string{}, map[string]string{}
	}
	file.Models[*modelName], file.Notes[*modelName] = about, *note
	for _, ds := range dsList {
		for _, p := range procList {
			var bt, at []blockTiming
			for blk := range *blocks {
				for _, mode := range []string{"batched", "alone"} {
					cmdArgs := []string{"bench-batched", "-child", mode, "-model", *modelName, "-datasets", ds, "-runs", strconv.Itoa(*runs),
						"-benchtime", minTime.String(), "-mirror", *data.mirror, "-cache", *data.cache}
					if len(data.sums) > 0 {
						cmdArgs = append(cmdArgs, "-sha256", data.sums.String())
					}
					c := exec.Command(self, cmdArgs...)
					c.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(p))
					c.Stderr = os.Stderr
					outb, err := c.Output()
					if err != nil {
						return fmt.Errorf("%s %s at GOMAXPROCS=%d: %w", ds, mode, p, err)
					}
					result, other := childResult(outb)
					os.Stderr.Write(other)
					var t blockTiming
					if err := json.Unmarshal(result, &t); err != nil {
						return fmt.Errorf("%s %s: reading the block's result %q: %w", ds, mode, outb, err)
					}
					fmt.Fprintf(os.Stderr, "%-10s GOMAXPROCS=%d block %d %-7s %8.2f ms/split-epoch (cpu %8.2f, peak RSS %5.0f MiB, %d epochs)\n",
						ds, p, blk+1, mode, t.Ms, t.CPUMs, float64(t.PeakRSS)/(1<<20), t.Epochs)
					if mode == "batched" {
						bt = append(bt, t)
					} else {
						at = append(at, t)
					}
				}
			}
			row := report.BatchedBenchRow{Model: *modelName, Dataset: ds, Procs: p, Runs: *runs, Blocks: *blocks,
				BatchedMs: median(bt, func(t blockTiming) float64 { return t.Ms }), AloneMs: median(at, func(t blockTiming) float64 { return t.Ms }),
				BatchedCPUMs: median(bt, func(t blockTiming) float64 { return t.CPUMs }), AloneCPUMs: median(at, func(t blockTiming) float64 { return t.CPUMs }),
				BatchedPeakRSS: maxRSS(bt), AlonePeakRSS: maxRSS(at), AuthorsMs: report.AuthorsMs(ds, p),
				Provenance: results.NewProvenance(info.Name)}
			if bt[0].Runs != *runs {
				row.Runs = bt[0].Runs
			}
			file.Rows = append(file.Rows, row)
			fmt.Printf("%-10s GOMAXPROCS=%d: batched %.2f ms/split-epoch, alone %.2f (%.2fx); authors' LW-GCN epoch %g ms\n",
				ds, p, row.BatchedMs, row.AloneMs, row.AloneMs/row.BatchedMs, row.AuthorsMs)
		}
	}
	// Merged into what the file holds now (another invocation may have
	// written it meanwhile): this invocation's rows replace theirs.
	return updateJSON(path, func(data []byte) (any, error) {
		if data == nil {
			return file, nil
		}
		cur, err := report.ParseBatchedBench(path, data)
		if err != nil {
			return nil, fmt.Errorf("%w (not rewritten)", err)
		}
		cur.Rows = slices.DeleteFunc(cur.Rows, func(r report.BatchedBenchRow) bool {
			return r.Model == *modelName && slices.Contains(dsList, r.Dataset) && slices.Contains(procList, r.Procs)
		})
		for _, r := range file.Rows {
			if r.Model == *modelName && slices.Contains(dsList, r.Dataset) && slices.Contains(procList, r.Procs) {
				cur.Rows = append(cur.Rows, r)
			}
		}
		if cur.Models == nil {
			cur.Models, cur.Notes = map[string]string{}, map[string]string{}
		}
		cur.Models[*modelName], cur.Notes[*modelName] = file.Models[*modelName], file.Notes[*modelName]
		return cur, nil
	})
}

// Bounds of bench-batched's flags: a batch of more runs than this is no
// split-epoch of the paper's protocol (10 splits x a few seeds).
const (
	maxBatchedRuns   = 1000
	maxBatchedBlocks = 100
)

func median(ts []blockTiming, f func(blockTiming) float64) float64 {
	v := make([]float64, len(ts))
	for i, t := range ts {
		v[i] = f(t)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func maxRSS(ts []blockTiming) uint64 {
	var m uint64
	for _, t := range ts {
		m = max(m, t.PeakRSS)
	}
	return m
}

// measureBlock times split-epochs of model ("lwgcn" or a zoo model) on one
// dataset in this process: mode "batched" trains runs runs (splits 0.., seeds
// 15..) in one computation, "alone" one run; after a warm-up epoch, at least
// three epochs and minTime.
func measureBlock(mode, modelName, ds string, runs int, minTime time.Duration, data dataFlags) (blockTiming, error) {
	ctx := context.Background()
	g, err := experiments.LoadGraph(ctx, ds, data.options()...)
	if err != nil {
		return blockTiming{}, err
	}
	b, info, err := backend.Shared()
	if err != nil {
		return blockTiming{}, err
	}
	var rs []train.Run
	for s := range runs {
		rs = append(rs, train.Run{Split: s % len(g.Splits()), Seed: int64(15 + s)})
	}
	size := 1
	switch mode {
	case "batched":
		size = runs
	case "alone":
	default:
		return blockTiming{}, fmt.Errorf("bench-batched: -child %q: want batched or alone", mode)
	}
	var er *train.EpochRunner
	if modelName == "lwgcn" {
		// f_P only provides the pseudo-labels before the timed epochs: 20
		// epochs of it, batched and alone alike.
		cfg := labelwise.Defaults(ds)
		cfg.PseudoEpochs = 20
		r, err := labelwise.NewRunner(b, info, g, cfg, nil, labelwise.WithBatch(size))
		if err != nil {
			return blockTiming{}, err
		}
		er, err = r.PrepareEpochs(ctx, rs[:size]...)
		if err != nil {
			return blockTiming{}, err
		}
	} else {
		m, mg, h, tr, err := benchZooModel(modelName, g, ds)
		if err != nil {
			return blockTiming{}, err
		}
		t, err := train.New(b, m, mg, train.Config{Epochs: 1, LR: h.LR, WeightDecay: h.WeightDecay, Optimizer: tr.Optimizer,
			Epoch: tr.Epoch, Phases: tr.Phases, BatchSize: size})
		if err != nil {
			return blockTiming{}, err
		}
		if er, err = t.PrepareRuns(rs[:size]...); err != nil {
			return blockTiming{}, err
		}
	}
	epoch, per := er.Epoch, size
	if _, err := epoch(); err != nil { // warm-up
		return blockTiming{}, err
	}
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // reset VmHWM: peak of the epochs only
	runtime.GC()
	cpu0 := processCPU()
	start := time.Now()
	n := 0
	for n < 3 || time.Since(start) < minTime {
		if _, err := epoch(); err != nil {
			return blockTiming{}, fmt.Errorf("bench-batched: %s %s epoch %d: %w", ds, mode, n+1, err)
		}
		n++
	}
	wall := time.Since(start)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n*per) }
	return blockTiming{Runs: per, Epochs: n, Ms: ms(wall), CPUMs: ms(processCPU() - cpu0), PeakRSS: vmHWM()}, nil
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// vmHWM is Linux's peak resident set size of this process, 0 elsewhere.
func vmHWM() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			if f := strings.Fields(rest); len(f) >= 1 {
				kb, _ := strconv.ParseUint(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// childResult splits a -child process's standard output into its result
// (the last non-empty line) and what came before it: lines that libraries
// print on standard output (the Go backend's "parallelism set to" for
// GOMLX_BACKEND=go:parallelism=N), passed on to standard error.
func childResult(out []byte) (result, other []byte) {
	trimmed := bytes.TrimRight(out, "\n")
	i := bytes.LastIndexByte(trimmed, '\n')
	return trimmed[i+1:], trimmed[:i+1]
}
