package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/limits"
	"github.com/lwgcn/toolkit/lwgcn/report"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/synth"
)

func init() {
	register(command{name: "sweep", summary: "synthetic homophily sweep (Fig. 2): accuracy vs h at several degrees, resumable", run: runSweep})
}

// maxSweepPoints bounds the values of -homophily and -degrees: each is a
// graph to generate and train on (the paper's sweep has 10 x 3).
const maxSweepPoints = 1000

func parseFloats(flagName, s string) ([]float64, error) {
	// "a:b:step" or "a,b,c"
	if parts := strings.Split(s, ":"); len(parts) == 3 {
		var v [3]float64
		for i, p := range parts {
			f, err := strconv.ParseFloat(p, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, usageErrorf("-%s %q: %q is not a finite number", flagName, s, p)
			}
			v[i] = f
		}
		if v[2] <= 0 || v[1] < v[0] {
			return nil, usageErrorf("-%s %q: want start:stop:step with step > 0", flagName, s)
		}
		// The count first: a tiny step would loop for ever (x += step
		// leaves x unchanged below float precision) or fill memory.
		n := math.Floor((v[1]-v[0]+1e-9)/v[2]) + 1
		if !(n <= maxSweepPoints) || v[0]+v[2] == v[0] {
			return nil, usageErrorf("-%s %q: %.3g points, more than %d (or a step below float precision)", flagName, s, n, maxSweepPoints)
		}
		var out []float64
		for i := range int(n) {
			x := v[0] + float64(i)*v[2]
			out = append(out, float64(int64(x*1000+0.5))/1000)
		}
		return out, nil
	}
	if n := strings.Count(s, ",") + 1; n > maxSweepPoints {
		return nil, usageErrorf("-%s: %d values, more than %d", flagName, n, maxSweepPoints)
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, usageErrorf("-%s %q: %q is not a finite number", flagName, s, p)
		}
		out = append(out, f)
	}
	return out, nil
}

// homophilyWasH catches the homophily flag's old name: -h is help now, and
// "-h 0.5" would otherwise print help and exit 0 without sweeping anything.
func homophilyWasH(args []string) error {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "h" {
			continue
		}
		if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			value, hasValue = args[i+1], true
		}
		if hasValue {
			return usageErrorf("-h %s: -h is help; the homophily values are set with -homophily %s", value, value)
		}
	}
	return nil
}

func runSweep(args []string) error {
	fs := newFlagSet("sweep", "[flags]")
	base := fs.String("base", "chameleon", `base graph: a dataset for the paper's Algorithm 2 (chameleon, squirrel, crocodile, ...) or "csbm"`)
	hs := fs.String("homophily", "0:0.9:0.1", `homophily values in [0, 1]: "start:stop:step" or a list`)
	degrees := fs.String("degrees", "5,10,20", "average degrees (> 0)")
	methods := fs.String("methods", strings.Join(experiments.SweepMethods, ","), "methods")
	epochs := fs.Int("epochs", 0, "override the epochs, >= 1 (default: each method's reference)")
	maxRuns := fs.Int("max-runs", 0, "run only the first N splits at each point (0: all 10)")
	seed := fs.Uint64("seed", 1, "graph generator seed")
	csbmSep := fs.Float64("csbm-separation", synth.DefaultCSBMFeatureSeparation, "-base csbm: norm of each class's "+
		"feature mean, in units of the feature noise (sets how well an MLP separates the classes)")
	quick := fs.Bool("quick", false, "quick mode: h 0,0.2,0.5,0.9, degree 10, 2 splits, 60 epochs, into results/quick/")
	out := fs.String("results", "", "results file (default results/sweep.json)")
	data := addDataFlags(fs)
	quiet := fs.Bool("quiet", false, "no per-epoch progress bar")
	batch := addBatchFlag(fs)
	workerF := addWorkerFlags(fs, "point")
	if err := homophilyWasH(args); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if err := checkRunFlags(fs, *epochs, *maxRuns); err != nil {
		return err
	}
	if *batch < 0 {
		return usageErrorf("-batch %d: must be >= 0 (0: auto, 1: every run alone, N: N runs per computation)", *batch)
	}
	worker, workers, err := workerF.parse()
	if err != nil {
		return err
	}
	spec := experiments.SweepSpec{Base: *base, Seed: *seed, MaxRuns: *maxRuns, Command: "sweep", Batch: *batch,
		Worker: worker, Workers: workers,
		DatasetOptions: data.options(), Log: func(s string) { fmt.Println(s) },
		ResultsPath: filepath.Join(resultsDir(), "sweep.json"), Methods: strings.Split(*methods, ",")}
	if spec.Hs, err = parseFloats("homophily", *hs); err != nil {
		return err
	}
	for _, h := range spec.Hs {
		if h < 0 || h > 1 {
			return usageErrorf("-homophily %q: %g is outside [0, 1]", *hs, h)
		}
	}
	if spec.Degrees, err = parseFloats("degrees", *degrees); err != nil {
		return err
	}
	nodes := synth.DefaultCSBMConfig().NumNodes
	if d, ok := datasets.Lookup(spec.Base); ok && d.NumNodes > 0 {
		nodes = d.NumNodes
	}
	for _, d := range spec.Degrees {
		if d <= 0 {
			return usageErrorf("-degrees %q: %g is not > 0 (a graph without edges has no homophily)", *degrees, d)
		}
		// Each of the nodes x degree edges is held in both directions
		// with its CSR views: about 32 bytes.
		if err := limits.CheckCount(fmt.Sprintf("-degrees %g on %d nodes (%s)", d, nodes, spec.Base), int64(math.Min(d*float64(nodes), 1<<62)), 32); err != nil {
			return usageError{err}
		}
	}
	var bases []string
	if spec.Base != experiments.BaseCSBM {
		bases = []string{spec.Base}
	}
	if err := checkNameFlags("base", bases, spec.Methods); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["csbm-separation"] {
		if spec.Base != experiments.BaseCSBM {
			return usageErrorf("-csbm-separation: a setting of -base csbm, not of -base %s", spec.Base)
		}
		if !(*csbmSep >= 0) || math.IsInf(*csbmSep, 0) {
			return usageErrorf("-csbm-separation %v: must be a finite number >= 0", *csbmSep)
		}
		spec.CSBM = synth.DefaultCSBMConfig()
		spec.CSBM.FeatureSeparation = *csbmSep
	}
	spec.Override.Epochs = *epochs
	if *quick {
		spec.Hs, spec.Degrees, spec.MaxRuns, spec.Override.Epochs, spec.Tag = []float64{0, 0.2, 0.5, 0.9}, []float64{10}, 2, 60, "quick"
		spec.ResultsPath = filepath.Join(resultsDir(), "quick", "sweep.json")
	}
	if *out != "" {
		spec.ResultsPath = *out
	}
	if err := checkResultsOutput("-results", spec.ResultsPath); err != nil {
		return err
	}
	if *workerF.procs > 1 {
		if err := runWorkers(fs, []string{"sweep"}, *workerF.procs, spec.ResultsPath); err != nil {
			return err
		}
		file, err := results.Open(spec.ResultsPath)
		if err != nil {
			return err
		}
		fmt.Print(report.SweepMarkdown(file.Runs(), spec.Base))
		return nil
	}
	s, err := newSession(*quiet)
	if err != nil {
		return err
	}
	defer s.stop()
	plan, err := experiments.PlanSweep(s.ctx, s.backend, s.info, spec)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "sweep plan: %d runs to train (%d epochs), %d copies of edge-free runs; results in %s\n",
		plan.Runs, plan.Epochs, plan.Copies, spec.ResultsPath)
	spec.Progress = s.progress
	file, err := experiments.SweepHomophily(s.ctx, s.backend, s.info, spec)
	if err != nil {
		return err
	}
	fmt.Print(report.SweepMarkdown(file.Runs(), spec.Base))
	return nil
}
