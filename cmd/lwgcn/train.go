package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/limits"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

func init() {
	register(command{name: "train", summary: "train a model (LW-GCN variants or a baseline) on a dataset's splits", run: runTrain})
}

// settingFlags are train's flags that set a model's settings
// (experiments.Overrides.Settings), by setting name.
type settingFlags struct {
	ints    map[string]*int
	floats  map[string]*float64
	variant *string
	extra   *string
}

// addSettingFlags adds the setting flags.
func addSettingFlags(fs *flag.FlagSet) settingFlags {
	f := settingFlags{ints: map[string]*int{}, floats: map[string]*float64{}}
	f.ints["epochs"] = fs.Int("epochs", 0, "epochs per run, >= 1 (default: the model's reference, e.g. 400)")
	f.ints["hidden"] = fs.Int("hidden", 0, "hidden units (default: the model's reference)")
	f.ints["layers"] = fs.Int("layers", 0, "layers (GCNII depth; LW-GCN: label-wise layers of f_C; default: the reference)")
	f.ints["heads"] = fs.Int("heads", 0, "GAT heads (default: the reference)")
	f.floats["lr"] = fs.Float64("lr", 0, "Adam learning rate (default: the reference)")
	f.floats["wd"] = fs.Float64("wd", 0, "Adam weight decay, PyTorch's coupled L2 (default: the reference)")
	f.floats["dropout"] = fs.Float64("dropout", 0, "dropout rate in [0, 1) (default: the reference)")
	f.floats["alpha"] = fs.Float64("alpha", 0, "GCNII alpha (default: the reference)")
	f.floats["lambda"] = fs.Float64("lambda", 0, "GCNII lambda (default: the reference)")
	f.ints["gcnii-layers"] = fs.Int("gcnii-layers", 0, "LW-GCN: layers of f_G (GCNII; default: the reference)")
	f.variant = fs.String("variant", "", "LW-GCN: f_C architecture, dense or small (default: the dataset's)")
	f.ints["refine"] = fs.Int("refine", 0, "LW-GCN: pseudo-label refinement rounds (beyond the paper)")
	f.extra = fs.String("extra", "", `a baseline's own settings, "name=value[,name=value]" (e.g. h2gcn's relu=0: no ReLU on the embedding; the names its error lists)`)
	return f
}

// settings are the settings of the flags given (set), checked against the
// settings model has.
func (f settingFlags) settings(set map[string]bool, model string) (map[string]float64, error) {
	has := experiments.SettingNames(model)
	out := map[string]float64{}
	for _, name := range slices.Sorted(maps.Keys(set)) {
		var v float64
		if p, ok := f.ints[name]; ok {
			v = float64(*p)
		} else if p, ok := f.floats[name]; ok {
			v = *p
		} else if name == "variant" {
			variant, err := labelwise.ParseVariant(*f.variant)
			if err != nil {
				return nil, usageError{err}
			}
			v = float64(variant)
		} else {
			continue
		}
		if !slices.Contains(has, name) {
			return nil, usageErrorf("-%s: not a setting of -model %s (it has -%s)", name, model, strings.Join(has, ", -"))
		}
		out[name] = v
	}
	if set["extra"] {
		if !slices.Contains(zoo.Names(), model) {
			return nil, usageErrorf("-extra: a baseline's setting; -model %s does not have it", model)
		}
		for _, kv := range strings.Split(*f.extra, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
			v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
			if !ok || name == "" || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, usageErrorf("-extra %q: want name=value[,name=value] with finite numbers, got %q", *f.extra, kv)
			}
			out[zoo.ExtraPrefix+strings.TrimSpace(name)] = v
		}
	}
	return out, nil
}

func runTrain(args []string) error {
	fs := newFlagSet("train", "-dataset NAME -model MODEL [flags]")
	dataset := fs.String("dataset", "", "dataset name (see `lwgcn datasets`)")
	modelName := fs.String("model", "gcn", "model: lwgcn, lwgcn-g, lwgcn-p, lwgcn-gcn, or a baseline: "+strings.Join(zoo.Names(), ", "))
	splitsFlag := fs.String("splits", "all", `splits to run: "all", "0-9", "0,3,5"`)
	seed := fs.Int64("seed", 15, "seed for every split (weights, dropout)")
	seedsFlag := fs.String("seeds", "", `several seeds per split, e.g. "10,11,12" (overrides -seed)`)
	settings := addSettingFlags(fs)
	batch := fs.Int("batch", experiments.BatchAlone, "runs trained together in one computation: 1 = each alone, N = N at "+
		"a time (every model; each run gives what it gives alone), 0 = as many as memory allows for the models measured "+
		"faster batched (see reproduce -batch)")
	data := addDataFlags(fs)
	rowNorm := fs.String("row-normalize", "auto", `features: "auto" (each model's reference: the standard preprocessing `+
		`normalises Planetoid rows to sum 1, SuperGAT, LINKX and ASGC read them raw), "yes" (rows sum to 1), `+
		`"no" (as loaded; a baseline whose official loader normalises them still does)`)
	checkpoint := fs.String("checkpoint", "", "checkpoint directory for baselines (resume runs found there; runs alone)")
	resultsPath := fs.String("results", "", "record the runs in this results JSON file")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dataset == "" {
		fs.Usage()
		return errors.New("-dataset is required")
	}
	// A flag given is taken as it is, and the model's validation names it
	// when out of range; a flag left out keeps the reference.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := checkTrainFlags(set, *settings.ints["epochs"], *settings.ints["refine"], settings, *batch); err != nil {
		return err
	}
	if !slices.Contains(experiments.Methods(), *modelName) {
		return usageErrorf("-model %q: unknown (LW-GCN variants: lwgcn, lwgcn-g, lwgcn-p, lwgcn-gcn; baselines: %s)",
			*modelName, strings.Join(zoo.Names(), ", "))
	}
	over, err := settings.settings(set, *modelName)
	if err != nil {
		return err
	}
	if *rowNorm != "auto" && *rowNorm != "yes" && *rowNorm != "no" {
		return usageErrorf(`-row-normalize %q: want "auto", "yes" or "no"`, *rowNorm)
	}
	if *checkpoint != "" && !slices.Contains(zoo.Names(), *modelName) {
		return usageErrorf("-checkpoint: a baseline setting; -model %s does not have it", *modelName)
	}
	if *resultsPath != "" {
		if err := checkResultsOutput("-results", *resultsPath); err != nil {
			return err
		}
	}
	s, err := newSession(*quiet)
	if err != nil {
		return err
	}
	defer s.stop()
	g, err := experiments.LoadGraph(s.ctx, *dataset, data.options()...)
	if err != nil {
		return err
	}
	g = rowNormalized(g, *rowNorm, *modelName, over)
	splits, err := parseSplits(*splitsFlag, len(g.Splits()))
	if err != nil {
		return err
	}
	seeds := []int64{*seed}
	if *seedsFlag != "" {
		if seeds, err = parseSeeds(*seedsFlag); err != nil {
			return err
		}
	}
	env := experiments.Env{Backend: s.backend, Info: s.info, Graph: g, Dataset: *dataset, Progress: s.progress,
		Override: experiments.Overrides{Settings: over}, CheckpointDir: *checkpoint}
	m, err := experiments.NewMethod(*modelName, env)
	if errors.Is(err, experiments.ErrSetting) {
		return usageError{err} // a flag out of range, or more memory than there is
	}
	if err != nil {
		return err
	}
	fmt.Printf("%s on %s\n", m.Describe(), g)
	return trainRuns(s, m, g.Name(), *modelName, train.Runs(splits, seeds...), *batch, *resultsPath)
}

// checkTrainFlags checks train's flags before anything is loaded.
func checkTrainFlags(set map[string]bool, epochs, refine int, f settingFlags, batch int) error {
	if set["epochs"] && epochs < 1 {
		return usageErrorf("-epochs %d: must be >= 1 (leave it out for the model's reference)", epochs)
	}
	if refine < 0 || refine > maxRefine {
		return usageErrorf("-refine %d: must be in [0, %d] (each round trains LW-GCN again)", refine, maxRefine)
	}
	if batch < 0 {
		return usageErrorf("-batch %d: must be >= 0", batch)
	}
	for _, name := range []string{"hidden", "layers", "heads", "gcnii-layers"} {
		if err := checkWidthFlag(name, *f.ints[name]); err != nil {
			return err
		}
	}
	return nil
}

// rowNormalized is g with -row-normalize's features, and (for a baseline)
// the setting that keeps its loader from undoing them.
func rowNormalized(g *graph.Graph, rowNorm, model string, over map[string]float64) *graph.Graph {
	raw := slices.Contains(experiments.SettingNames(model), "raw-features")
	switch rowNorm {
	case "yes":
		g = g.RowNormalizeFeatures()
		if raw {
			over["raw-features"] = 0
		}
	case "no":
		g = g.WithUnnormalizedFeatures()
		if raw {
			over["raw-features"] = 1
		}
	}
	return g
}

// trainRuns trains the runs with m, batch at a time, printing each as it
// ends, then the summary, and records them in resultsPath (if set).
func trainRuns(s *session, m experiments.Method, dataset, name string, runs []train.Run, batch int, resultsPath string) error {
	var file *results.File
	if resultsPath != "" {
		var err error
		if file, err = results.Open(resultsPath); err != nil {
			return err
		}
	}
	var tests, ms []float64
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	err := experiments.TrainRuns(s.ctx, batch, name, m, runs, logf, func(i int, o experiments.Outcome, perBatch int, secs float64) error {
		printOutcome(runs[i], o)
		tests, ms = append(tests, o.TestAcc), append(ms, o.MsPerEpoch)
		if file == nil {
			return nil
		}
		return file.Put(experiments.RunRecord("train", dataset, name, m, runs[i], o, perBatch, secs, s.info))
	})
	if err != nil {
		return err
	}
	acc := results.MeanStd(tests)
	fmt.Printf("test accuracy: %.2f ± %.2f %% over %d runs (population std, as numpy.std)\n", 100*acc.Mean, 100*acc.Std, acc.N)
	fmt.Printf("time: %.2f ms/epoch (mean over runs, compilation excluded)\n", results.MeanStd(ms).Mean)
	fmt.Println(s.info)
	if file != nil {
		fmt.Fprintf(os.Stderr, "recorded %d runs in %s\n", len(runs), resultsPath)
	}
	return nil
}

// printOutcome prints one run's line (and its refinement rounds).
func printOutcome(r train.Run, o experiments.Outcome) {
	for k := 0; ; k++ {
		test, ok := o.Metrics[fmt.Sprintf("round%d_test_acc", k)]
		if !ok {
			break
		}
		fmt.Printf("    round %d: test %.2f %%, val %.2f %%, pseudo-label accuracy %.2f %%\n", k, 100*test,
			100*o.Metrics[fmt.Sprintf("round%d_val_acc", k)], 100*o.Metrics[fmt.Sprintf("round%d_pseudo_acc", k)])
	}
	w := ""
	if o.SelectionWeight != nil {
		w = fmt.Sprintf(", weight f_C %.3f", *o.SelectionWeight)
	}
	fmt.Printf("  split %2d seed %3d: test %6.2f %%  (val %6.2f %%, best epoch %d%s)\n", r.Split, r.Seed, 100*o.TestAcc,
		100*o.ValAcc, o.BestEpoch, w)
}

// maxRefine bounds -refine: the paper refines for 2 rounds.
const maxRefine = 100

// checkWidthFlag refuses a size flag (hidden units, layers, heads) whose
// square, in float32 weights with gradients and Adam moments, exceeds the
// memory budget before any dataset is loaded: a hidden-to-hidden layer of
// that width could not be held. The graph-aware bound (experiments.
// CheckSize) follows once the dataset is loaded.
func checkWidthFlag(name string, v int) error {
	if v <= 0 {
		return nil
	}
	if err := limits.CheckCount(fmt.Sprintf("-%s %d", name, v), limits.Mul(int64(v), int64(v)), 16); err != nil {
		return usageError{err}
	}
	return nil
}

// maxSplits bounds the splits a -splits list may name.
const maxSplits = 10000

// parseSplits parses "all", "3", "0-9" or "0,2,5" against n splits; n < 0
// accepts any split numbers >= 0 (not "all": the caller knows no n).
func parseSplits(s string, n int) ([]int, error) {
	if (s == "" || s == "all") && n >= 0 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, usageErrorf("-splits %q: %q is not a split number", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, usageErrorf("-splits %q: %q is not a split number", s, hi)
			}
		}
		switch {
		case n < 0 && (a < 0 || a > b):
			return nil, usageErrorf("-splits %q: %q is not a split number or an ascending range", s, part)
		case n >= 0 && (a < 0 || b >= n || a > b):
			return nil, usageErrorf("-splits %q: %q outside the dataset's splits 0-%d", s, part, n-1)
		}
		if b-a >= maxSplits-len(out) {
			return nil, usageErrorf("-splits %q: more than %d splits (datasets have a few dozen at most)", s, maxSplits)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}

func parseSeeds(s string) ([]int64, error) {
	var out []int64
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return nil, usageErrorf("-seeds %q: %q is not an integer", s, part)
		}
		out = append(out, v)
	}
	return out, nil
}
