package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
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

// lwgcnVariants are the LW-GCN configurations `train` accepts.
var lwgcnVariants = map[string]func(labelwise.Config) labelwise.Config{
	"lwgcn": func(c labelwise.Config) labelwise.Config { return c }, "lwgcn-g": labelwise.Config.WithoutSelection,
	"lwgcn-p": labelwise.Config.WithGCNPseudoLabels, "lwgcn-gcn": labelwise.Config.WithGCNBackbone,
}

// Flags of one kind of model only (train rejects them for the other kind).
var (
	lwgcnOnlyFlags    = map[string]bool{"variant": true, "refine": true, "gcnii-layers": true}
	baselineOnlyFlags = map[string]bool{"heads": true, "checkpoint": true}
)

// splitOutcome is one trained split, whatever the model.
type splitOutcome struct {
	split                     int
	seed                      int64
	test, val, train, weight  float64
	bestEpoch, epochs         int
	msPerEpoch, compile, secs float64
}

func runTrain(args []string) error {
	fs := newFlagSet("train", "-dataset NAME -model MODEL [flags]")
	dataset := fs.String("dataset", "", "dataset name (see `lwgcn datasets`)")
	modelName := fs.String("model", "gcn", "model: lwgcn, lwgcn-g, lwgcn-p, lwgcn-gcn, or a baseline: "+strings.Join(zoo.Names(), ", "))
	splitsFlag := fs.String("splits", "all", `splits to run: "all", "0-9", "0,3,5"`)
	seed := fs.Int64("seed", 15, "seed for every split (weights, dropout)")
	seedsFlag := fs.String("seeds", "", `several seeds per split, e.g. "10,11,12" (overrides -seed)`)
	epochs := fs.Int("epochs", 0, "epochs per run, >= 1 (default: the model's reference, e.g. 400)")
	hidden := fs.Int("hidden", 0, "hidden units (default: the model's reference)")
	layers := fs.Int("layers", 0, "layers (GCNII depth; LW-GCN: label-wise layers of f_C; default: the reference)")
	heads := fs.Int("heads", 0, "GAT heads (default: the reference)")
	lr := fs.Float64("lr", 0, "Adam learning rate (default: the reference)")
	wd := fs.Float64("wd", 0, "Adam weight decay, PyTorch's coupled L2 (default: the reference)")
	dropout := fs.Float64("dropout", 0, "dropout rate in [0, 1) (default: the reference)")
	alpha := fs.Float64("alpha", 0, "GCNII alpha (default: the reference)")
	lambda := fs.Float64("lambda", 0, "GCNII lambda (default: the reference)")
	gcniiLayers := fs.Int("gcnii-layers", 0, "LW-GCN: layers of f_G (GCNII; default: the reference)")
	variant := fs.String("variant", "", "LW-GCN: f_C architecture, dense or small (default: the dataset's)")
	refine := fs.Int("refine", 0, "LW-GCN: pseudo-label refinement rounds (beyond the paper)")
	data := addDataFlags(fs)
	rowNorm := fs.String("row-normalize", "auto", `features: "auto" (each model's reference: the standard preprocessing `+
		`normalises Planetoid rows to sum 1, SuperGAT, LINKX and ASGC read them raw), "yes" (rows sum to 1), `+
		`"no" (as loaded; a baseline whose official loader normalises them still does)`)
	checkpoint := fs.String("checkpoint", "", "checkpoint directory for baselines (resume runs found there)")
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
	if set["epochs"] && *epochs < 1 {
		return usageErrorf("-epochs %d: must be >= 1 (leave it out for the model's reference)", *epochs)
	}
	if *refine < 0 || *refine > maxRefine {
		return usageErrorf("-refine %d: must be in [0, %d] (each round trains LW-GCN again)", *refine, maxRefine)
	}
	for _, w := range []struct {
		name string
		v    int
	}{{"hidden", *hidden}, {"layers", *layers}, {"heads", *heads}, {"gcnii-layers", *gcniiLayers}} {
		if err := checkWidthFlag(w.name, w.v); err != nil {
			return err
		}
	}
	// A flag the chosen model has no use for is an error, not ignored.
	_, isLWGCN := lwgcnVariants[*modelName]
	for _, name := range slices.Sorted(maps.Keys(set)) {
		switch {
		case !isLWGCN && lwgcnOnlyFlags[name]:
			return usageErrorf("-%s: an LW-GCN setting; -model %s does not have it", name, *modelName)
		case isLWGCN && baselineOnlyFlags[name]:
			return usageErrorf("-%s: a baseline setting; -model %s does not have it", name, *modelName)
		}
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
	b, info, ctx, progress := s.backend, s.info, s.ctx, s.progress
	g, err := experiments.LoadGraph(ctx, *dataset, data.options()...)
	if err != nil {
		return err
	}
	switch *rowNorm {
	case "auto":
	case "yes":
		g = g.RowNormalizeFeatures()
	case "no":
		g = g.WithUnnormalizedFeatures()
	default:
		return usageErrorf(`-row-normalize %q: want "auto", "yes" or "no"`, *rowNorm)
	}
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
	var run func(split int, seed int64) (splitOutcome, error)
	var describe, config string
	if mk, ok := lwgcnVariants[*modelName]; ok {
		cfg := mk(labelwise.Defaults(*dataset))
		if set["epochs"] {
			cfg.Epochs = *epochs
		}
		if set["hidden"] {
			cfg.Hidden = *hidden
		}
		if set["layers"] {
			cfg.Layers = *layers
		}
		if set["lr"] {
			cfg.LR = *lr
		}
		if set["wd"] {
			cfg.WeightDecay = *wd
		}
		if set["dropout"] {
			cfg.Dropout = *dropout
		}
		if set["alpha"] {
			cfg.Alpha = *alpha
		}
		if set["lambda"] {
			cfg.Lambda = *lambda
		}
		if set["gcnii-layers"] {
			cfg.GCNIILayers = *gcniiLayers
		}
		if set["variant"] {
			if cfg.Variant, err = labelwise.ParseVariant(*variant); err != nil {
				return err
			}
		}
		cfg.RefineRounds = *refine
		if err := cfg.Validate(); err != nil {
			return usageError{err} // a flag out of range
		}
		if err := experiments.CheckSize(g, map[string]float64{"hidden": float64(cfg.Hidden), "layers": float64(cfg.Layers),
			"gcnii_layers": float64(cfg.GCNIILayers), "epochs": float64(cfg.Epochs * (1 + cfg.RefineRounds))}); err != nil {
			return usageError{err} // the flags ask for more memory than there is
		}
		r, err := labelwise.NewRunner(b, info, g, cfg, progress)
		if err != nil {
			return err
		}
		describe = fmt.Sprintf("%s: f_C %s variant, %d layers, hidden %d, dropout %g; f_G %s (%d layers); lr %g, wd %g, %d epochs",
			cfg.Name(), cfg.Variant, cfg.Layers, cfg.Hidden, cfg.Dropout, cfg.Backbone, cfg.GCNIILayers, cfg.LR, cfg.WeightDecay, cfg.Epochs)
		config = fmt.Sprintf("%+v", cfg)
		run = func(split int, seed int64) (splitOutcome, error) {
			res, err := r.Run(ctx, split, seed)
			if err != nil {
				return splitOutcome{}, err
			}
			defer res.Finalize()
			f := res.Final()
			for k, rd := range res.Rounds {
				if len(res.Rounds) > 1 {
					fmt.Printf("    round %d: test %.2f %%, val %.2f %%, pseudo-label accuracy %.2f %%\n", k, 100*rd.TestAcc,
						100*rd.ValAcc, 100*rd.PseudoAcc)
				}
			}
			return splitOutcome{test: f.TestAcc, val: f.ValAcc, train: f.TrainAcc, weight: f.WeightFC, bestEpoch: f.BestEpoch,
				epochs: cfg.Epochs, msPerEpoch: f.MsPerEpoch, compile: res.CompileSecs}, nil
		}
	} else {
		e, ok := zoo.Lookup(*modelName)
		if !ok {
			return usageErrorf("-model %q: unknown (LW-GCN variants: lwgcn, lwgcn-g, lwgcn-p, lwgcn-gcn; baselines: %s)",
				*modelName, strings.Join(zoo.Names(), ", "))
		}
		h := e.Defaults(*dataset)
		if set["epochs"] {
			h = e.WithEpochs(h, *epochs) // scales epoch-counting extras (BM-GCN's MLP epochs)
		}
		if set["hidden"] {
			h.Hidden = *hidden
		}
		if set["layers"] {
			h.Layers = *layers
		}
		if set["heads"] {
			h.Heads = *heads
		}
		if set["lr"] {
			h.LR = *lr
		}
		if set["wd"] {
			h.WeightDecay = *wd
		}
		if set["dropout"] {
			h.Dropout = *dropout
		}
		if set["alpha"] {
			h.Alpha = *alpha
		}
		if set["lambda"] {
			h.Lambda = *lambda
		}
		switch *rowNorm { // over the entry's own choice of raw features
		case "yes":
			h = h.With(zoo.RawFeaturesKey, 0)
		case "no":
			h = h.With(zoo.RawFeaturesKey, 1)
		}
		// Settings out of range come from the flags: a usage error.
		if err := h.Validate(); err != nil {
			return usageErrorf("zoo: %s: %w", e.Name, err)
		}
		if _, _, err := e.Build(h); err != nil {
			return usageErrorf("zoo: %s: %w", e.Name, err)
		}
		if err := experiments.CheckSize(g, map[string]float64{"hidden": float64(h.Hidden), "layers": float64(h.Layers),
			"heads": float64(h.Heads), "epochs": float64(h.Epochs)}); err != nil {
			return usageError{err}
		}
		t, err := zoo.NewTrainer(b, info, g, e.Name, h, progress, func(c *train.Config) {
			c.CheckpointDir, c.CheckpointEvery = *checkpoint, 50
			c.CheckpointSettings = checkpointSettings(*dataset, e.Name, h)
		})
		if err != nil {
			return err
		}
		describe, config = fmt.Sprintf("%s %s", e.Title, h.Key()), e.Name+h.Key()
		run = func(split int, seed int64) (splitOutcome, error) {
			rr, err := t.RunOne(ctx, train.Run{Split: split, Seed: seed})
			if err != nil {
				return splitOutcome{}, err
			}
			defer rr.Finalize()
			return splitOutcome{test: rr.TestAcc, val: rr.ValAcc, train: rr.TrainAcc, weight: -1, bestEpoch: rr.BestEpoch,
				epochs: rr.Epochs, msPerEpoch: rr.MsPerEpoch, compile: t.CompileTime().Seconds()}, nil
		}
	}

	fmt.Printf("%s on %s\n", describe, g)
	var outs []splitOutcome
	var tests, ms []float64
	for _, s := range splits {
		for _, sd := range seeds {
			start := time.Now()
			o, err := run(s, sd)
			if err != nil {
				return err
			}
			o.split, o.seed, o.secs = s, sd, time.Since(start).Seconds()
			w := ""
			if o.weight >= 0 {
				w = fmt.Sprintf(", weight f_C %.3f", o.weight)
			}
			fmt.Printf("  split %2d seed %3d: test %6.2f %%  (val %6.2f %%, best epoch %d%s)\n", s, sd, 100*o.test, 100*o.val,
				o.bestEpoch, w)
			outs, tests, ms = append(outs, o), append(tests, o.test), append(ms, o.msPerEpoch)
		}
	}
	acc := results.MeanStd(tests)
	fmt.Printf("test accuracy: %.2f ± %.2f %% over %d runs (population std, as numpy.std)\n", 100*acc.Mean, 100*acc.Std, acc.N)
	fmt.Printf("time: %.2f ms/epoch (mean over runs, compilation excluded)\n", results.MeanStd(ms).Mean)
	fmt.Println(info)
	if *resultsPath != "" {
		return saveTrainRuns(*resultsPath, g, *modelName, config, outs, info)
	}
	return nil
}

func saveTrainRuns(path string, g *graph.Graph, model, config string, outs []splitOutcome, info backend.Info) error {
	file, err := results.Open(path)
	if err != nil {
		return err
	}
	prov := results.NewProvenance(info.Name)
	for _, o := range outs {
		r := train.Run{Split: o.split, Seed: o.seed}
		run := results.Run{Key: experiments.RunKey("train", g.Name(), model, r, config), Experiment: "train",
			Dataset: g.Name(), Model: model, Split: o.split, Seed: o.seed, Options: map[string]string{"config": config},
			TestAcc: o.test, ValAcc: o.val, TrainAcc: o.train, BestEpoch: o.bestEpoch, Epochs: o.epochs,
			MsPerEpoch: o.msPerEpoch, CompileSecs: o.compile, TotalSecs: o.secs, Provenance: prov}
		if o.weight >= 0 {
			w := o.weight
			run.SelectionWeight = &w
		}
		if err := file.Put(run); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "recorded %d runs in %s\n", len(outs), path)
	return nil
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

// checkpointSettings are what a baseline's checkpoint is made for beyond
// what the trainer records itself: the zoo entry, each of its settings,
// and the SHA-256 sums of the dataset's registered files.
func checkpointSettings(dataset, model string, h zoo.Hyper) map[string]string {
	out := map[string]string{"zoo entry": model}
	var fields map[string]any
	if err := json.Unmarshal([]byte(h.Key()), &fields); err == nil {
		for k, v := range fields {
			b, _ := json.Marshal(v)
			out[k] = string(b)
		}
	}
	if d, ok := datasets.Lookup(dataset); ok {
		sum := sha256.New()
		for _, f := range d.Files {
			fmt.Fprintf(sum, "%s %s\n", f.CachePath(), f.SHA256)
		}
		out["dataset files"] = hex.EncodeToString(sum.Sum(nil))[:16]
	}
	return out
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
