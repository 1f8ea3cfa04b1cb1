package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

func init() {
	register(command{name: "train", summary: "train a baseline model (gcn, gat, gcnii, mlp) on a dataset's splits", run: runTrain})
}

// trainFlags are the settings of `lwgcn train`; zero values mean the
// model's default (modelDefaults).
type trainFlags struct {
	dataset, model, splits, seeds string
	mirror, cache, rowNorm        string
	epochs, hidden, layers, heads int
	lr, wd, dropout, alpha, lambd float64
	seed                          int64
	checkpoint, resultsPath       string
	quiet                         bool
}

// modelDefaults are the per-model defaults (the original papers' settings).
var modelDefaults = map[string]trainFlags{
	"gcn":   {hidden: 64, dropout: 0.5},
	"gat":   {hidden: 8, heads: 8, dropout: 0.6},
	"gcnii": {hidden: 64, layers: 2, dropout: 0.5, alpha: 0.1, lambd: 0.5},
	"mlp":   {hidden: 64, dropout: 0.5},
}

func runTrain(args []string) error {
	fs := newFlagSet("train", "--dataset NAME --model gcn|gat|gcnii|mlp [flags]")
	var f trainFlags
	fs.StringVar(&f.dataset, "dataset", "", "dataset name (see `lwgcn datasets`)")
	fs.StringVar(&f.model, "model", "gcn", "model: gcn, gat, gcnii or mlp")
	fs.StringVar(&f.splits, "splits", "all", `splits to run: "all", "0-9", "0,3,5"`)
	fs.Int64Var(&f.seed, "seed", 15, "seed for every split (weights, dropout)")
	fs.StringVar(&f.seeds, "seeds", "", `several seeds per split, e.g. "10,11,12" (overrides -seed)`)
	fs.IntVar(&f.epochs, "epochs", train.DefaultEpochs, "epochs per run")
	fs.IntVar(&f.hidden, "hidden", 0, "hidden units (0: model default: gcn/gcnii/mlp 64, gat 8 per head)")
	fs.IntVar(&f.layers, "layers", 0, "GCNII layers (0: 2)")
	fs.IntVar(&f.heads, "heads", 0, "GAT heads (0: 8)")
	fs.Float64Var(&f.lr, "lr", train.DefaultLR, "Adam learning rate")
	fs.Float64Var(&f.wd, "wd", train.DefaultWD, "Adam weight decay (L2, PyTorch style)")
	fs.Float64Var(&f.dropout, "dropout", -1, "dropout rate (-1: model default: 0.5, GAT 0.6)")
	fs.Float64Var(&f.alpha, "alpha", 0, "GCNII alpha (0: 0.1)")
	fs.Float64Var(&f.lambd, "lambda", 0, "GCNII lambda (0: 0.5)")
	fs.StringVar(&f.mirror, "mirror", "", "dataset mirror URL or directory (default $LWGCN_MIRROR)")
	fs.StringVar(&f.cache, "cache", "", "dataset cache directory (default $LWGCN_DATA, else data/cache)")
	fs.StringVar(&f.rowNorm, "row-normalize", "auto", `row-normalise features: "auto" (Cora, Citeseer, Pubmed), "yes", "no"`)
	fs.StringVar(&f.checkpoint, "checkpoint", "", "checkpoint directory (resume runs found there)")
	fs.StringVar(&f.resultsPath, "results", "", "append the runs to this results JSON file (e.g. results/baselines.json)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.dataset == "" {
		fs.Usage()
		return errors.New("-dataset is required")
	}
	m, err := buildModel(f)
	if err != nil {
		return err
	}
	b, info, err := backend.Shared()
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, info)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g, err := loadGraph(ctx, f.dataset, f.mirror, f.cache, f.rowNorm)
	if err != nil {
		return err
	}
	splits, err := parseSplits(f.splits, len(g.Splits()))
	if err != nil {
		return err
	}
	seeds := []int64{f.seed}
	if f.seeds != "" {
		if seeds, err = parseSeeds(f.seeds); err != nil {
			return err
		}
	}
	var progress train.Progress = train.NewTerminal(os.Stderr)
	if f.quiet {
		progress = train.Silent{}
	}
	tr, err := train.New(b, m, g, train.Config{Epochs: f.epochs, LR: f.lr, WeightDecay: f.wd, Progress: progress,
		CheckpointDir: f.checkpoint, CheckpointEvery: 50, Backend: info})
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := tr.Run(ctx, train.Runs(splits, seeds...))
	if err != nil {
		return err
	}
	fmt.Printf("%s on %s (%s), %d epochs, lr %g, wd %g\n", m.Name(), g.Name(), describeModel(m), f.epochs, f.lr, f.wd)
	for _, r := range res.Runs {
		fmt.Printf("  split %2d seed %3d: test %6.2f %%  (val %6.2f %%, best epoch %d)\n", r.Split, r.Seed,
			100*r.TestAcc, 100*r.ValAcc, r.BestEpoch)
	}
	fmt.Printf("test accuracy: %.2f ± %.2f %% over %d runs (population std, as numpy.std)\n",
		100*res.TestAcc.Mean, 100*res.TestAcc.Std, res.TestAcc.N)
	fmt.Printf("time: %.2f ms/epoch (mean over runs, compilation excluded), compilation %.2f s, total %.1f s\n",
		res.MsPerEpoch, res.CompileTime.Seconds(), time.Since(start).Seconds())
	fmt.Println(info)
	if f.resultsPath != "" {
		if err := saveRuns(f, m, g, res, info); err != nil {
			return err
		}
	}
	for _, r := range res.Runs {
		r.Finalize()
	}
	return nil
}

// loadGraph is the one place the CLI obtains datasets.
func loadGraph(ctx context.Context, name, mirror, cache, rowNorm string) (*graph.Graph, error) {
	var opts []datasets.Option
	if mirror != "" {
		opts = append(opts, datasets.WithMirror(mirror))
	}
	if cache != "" {
		opts = append(opts, datasets.WithCacheDir(cache))
	}
	g, err := datasets.Load(ctx, name, opts...)
	if err != nil {
		return nil, err
	}
	switch rowNorm {
	case "yes":
		g = g.RowNormalizeFeatures()
	case "no":
	case "auto":
		switch strings.ToLower(name) {
		case "cora", "citeseer", "pubmed":
			g = g.RowNormalizeFeatures()
		}
	default:
		return nil, fmt.Errorf(`-row-normalize %q: want "auto", "yes" or "no"`, rowNorm)
	}
	if len(g.Splits()) == 0 {
		return nil, fmt.Errorf("dataset %s has no splits", name)
	}
	return g, nil
}

func buildModel(f trainFlags) (nn.Model, error) {
	d, ok := modelDefaults[f.model]
	if !ok {
		return nil, fmt.Errorf("-model %q: want gcn, gat, gcnii or mlp", f.model)
	}
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	pickF := func(v, def float64) float64 {
		if v > 0 {
			return v
		}
		return def
	}
	dropout := d.dropout
	if f.dropout >= 0 {
		dropout = f.dropout
	}
	if dropout >= 1 {
		return nil, fmt.Errorf("-dropout %v: must be below 1", dropout)
	}
	hidden := pick(f.hidden, d.hidden)
	switch f.model {
	case "gcn":
		return nn.GCN{Hidden: hidden, Dropout: dropout}, nil
	case "gat":
		return nn.GAT{Hidden: hidden, Heads: pick(f.heads, d.heads), OutHeads: 1, Dropout: dropout,
			AttentionDropout: dropout}, nil
	case "gcnii":
		return nn.GCNII{Layers: pick(f.layers, d.layers), Hidden: hidden, Dropout: dropout,
			Alpha: pickF(f.alpha, d.alpha), Lambda: pickF(f.lambd, d.lambd)}, nil
	default:
		return nn.MLP{Hidden: hidden, Dropout: dropout}, nil
	}
}

func describeModel(m nn.Model) string {
	switch m := m.(type) {
	case nn.GCN:
		return fmt.Sprintf("hidden %d, dropout %g", m.Hidden, m.Dropout)
	case nn.GAT:
		return fmt.Sprintf("%d heads x %d, dropout %g", m.Heads, m.Hidden, m.Dropout)
	case nn.GCNII:
		return fmt.Sprintf("%d layers, hidden %d, dropout %g, alpha %g, lambda %g", m.Layers, m.Hidden, m.Dropout,
			m.Alpha, m.Lambda)
	case nn.MLP:
		return fmt.Sprintf("hidden %d, dropout %g", m.Hidden, m.Dropout)
	}
	return m.Name()
}

// parseSplits parses "all", "3", "0-9" or "0,2,5" against n splits.
func parseSplits(s string, n int) ([]int, error) {
	if s == "" || s == "all" {
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
			return nil, fmt.Errorf("-splits %q: %q is not a split number", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("-splits %q: %q is not a split number", s, hi)
			}
		}
		if a < 0 || b >= n || a > b {
			return nil, fmt.Errorf("-splits %q: %q outside the dataset's splits 0-%d", s, part, n-1)
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
			return nil, fmt.Errorf("-seeds %q: %q is not an integer", s, part)
		}
		out = append(out, v)
	}
	return out, nil
}

func saveRuns(f trainFlags, m nn.Model, g *graph.Graph, res *train.Result, info backend.Info) error {
	file, err := results.Open(f.resultsPath)
	if err != nil {
		return err
	}
	prov := results.NewProvenance(info.Name)
	params := map[string]float64{"lr": f.lr, "wd": f.wd, "epochs": float64(f.epochs)}
	desc := describeModel(m)
	for _, r := range res.Runs {
		run := results.Run{
			Key:        fmt.Sprintf("train/%s/%s/%s/split%d/seed%d", g.Name(), m.Name(), desc, r.Split, r.Seed),
			Experiment: "train", Dataset: g.Name(), Model: m.Name(), Split: r.Split, Seed: r.Seed,
			Params: params, Options: map[string]string{"model": desc, "backend": info.String()},
			TestAcc: r.TestAcc, ValAcc: r.ValAcc, TrainAcc: r.TrainAcc, BestEpoch: r.BestEpoch, Epochs: r.Epochs,
			MsPerEpoch: r.MsPerEpoch, CompileSecs: res.CompileTime.Seconds(), Provenance: prov,
		}
		if err := file.Put(run); err != nil {
			return err
		}
	}
	if err := file.Save(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", f.resultsPath)
	return nil
}
