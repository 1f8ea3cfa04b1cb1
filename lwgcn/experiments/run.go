package experiments

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Protocol returns the (split, seed) runs of the paper's protocol for a
// dataset with numSplits splits: the public Planetoid split with seeds 10,
// 11, 12; every split with seed 15 otherwise.
func Protocol(dataset string, numSplits int) []train.Run {
	switch dataset {
	case "cora", "citeseer", "pubmed":
		return train.Runs([]int{0}, 10, 11, 12)
	}
	splits := make([]int, numSplits)
	for i := range splits {
		splits[i] = i
	}
	return train.Runs(splits, 15)
}

// WorkerShare returns worker's share of runs among workers (all of them
// when workers <= 1): the runs at positions worker, worker+workers, ...
func WorkerShare(runs []train.Run, worker, workers int) []train.Run {
	if workers <= 1 {
		return runs
	}
	var out []train.Run
	for i := worker; i < len(runs); i += workers {
		out = append(out, runs[i])
	}
	return out
}

// Spec describes an experiment run.
type Spec struct {
	// Experiment names the experiment ("table2", "table3", "grid", ...).
	Experiment string
	// ResultsPath is the results file (resumed if it exists).
	ResultsPath string
	Datasets    []string
	Methods     []string
	// Override adjusts every method's configuration (quick runs, grid).
	Override Overrides
	// Splits, if set, keeps only the runs of these splits (a dataset with
	// fewer splits keeps those it has): processes given disjoint splits,
	// each with its own ResultsPath, run one table in parallel.
	Splits []int
	// MaxRuns > 0 keeps only the first MaxRuns (split, seed) runs per
	// dataset (after Splits).
	MaxRuns int
	// Worker and Workers share a table between processes run at once: with
	// Workers > 1 this process keeps, of each dataset's runs (after Splits
	// and MaxRuns), those at positions Worker, Worker+Workers, ... so that
	// Workers processes with Worker = 0 .. Workers-1 run every run once and
	// get the same number of each cell's runs (give each its own
	// ResultsPath, then merge them).
	Worker, Workers int
	// DatasetOptions are passed to datasets.Load (mirror, cache).
	DatasetOptions []datasets.Option
	// Log receives one line per run (nil: discarded); Progress the epochs.
	Log      io.Writer
	Progress train.Progress
	// Tag is added to every run's options (e.g. "quick").
	Tag string
	// Batch is the batch mode: BatchAuto (0), BatchAlone (1) or the runs
	// per batch.
	Batch int
	// Command names the invocation in the session record (e.g.
	// "reproduce"); empty: "experiments.Run".
	Command string
	// reused are the opened Reuse files (set by runSession).
	reused []reusedFile
	// Reuse are other experiments' results whose runs count as recorded
	// here (the same dataset, method, split, seed and configuration): the
	// heterophily table takes Table 2's runs on the filtered graphs instead
	// of training them again. They are read, never written.
	Reuse []Reuse
}

// Reuse names a results file and the experiment its runs are keyed under.
type Reuse struct {
	Path, Experiment string
}

type reusedFile struct {
	file       *results.File
	experiment string
}

// recordedElsewhere says whether a Reuse file holds the run.
func (s Spec) recordedElsewhere(ds, name string, r train.Run, config string) bool {
	for _, u := range s.reused {
		if u.file.Has(RunKey(u.experiment, ds, name, r, config)) {
			return true
		}
	}
	return false
}

// RunRecord is the record of run r of method name (m) on dataset in
// experiment: its outcome o, the runs per computation that trained it (0:
// alone), its wall time and provenance.
func RunRecord(experiment, dataset, name string, m Method, r train.Run, o Outcome, perBatch int, secs float64,
	info backend.Info) results.Run {
	config := m.Config()
	opts := map[string]string{}
	if o, ok := m.(OptionRecorder); ok {
		opts = o.Options()
	}
	opts["config"] = shortHash(config)
	return results.Run{Key: RunKey(experiment, dataset, name, r, config), Experiment: experiment, Dataset: dataset,
		Model: name, Split: r.Split, Seed: r.Seed, Params: m.Params(), Options: opts,
		TestAcc: o.TestAcc, ValAcc: o.ValAcc, TrainAcc: o.TrainAcc, BestEpoch: o.BestEpoch, Epochs: o.Epochs,
		SelectionWeight: o.SelectionWeight, Metrics: o.Metrics, MsPerEpoch: o.MsPerEpoch, CompileSecs: o.CompileSecs,
		Compiles: &o.Compiles, TotalSecs: secs, BatchRuns: perBatch, Provenance: results.NewProvenance(info.Name)}
}

// RunKey is the results key of one run.
func RunKey(experiment, dataset, method string, r train.Run, config string) string {
	return fmt.Sprintf("%s|%s|%s|split=%d|seed=%d|cfg=%s", experiment, dataset, method, r.Split, r.Seed, shortHash(config))
}

// LoadGraph loads a dataset with the standard preprocessing.
func LoadGraph(ctx context.Context, name string, opts ...datasets.Option) (*graph.Graph, error) {
	g, err := datasets.Load(ctx, name, opts...)
	if err != nil {
		return nil, err
	}
	return datasets.Standard(g), nil
}

// checkNames fails on an unknown dataset or method before anything runs (a
// typo in the last name of a list used to stop the run hours in).
func checkNames(datasetNames, methods []string) error {
	for _, d := range datasetNames {
		if _, ok := datasets.Lookup(d); !ok {
			return fmt.Errorf("experiments: unknown dataset %q (known: %s)", d, strings.Join(datasets.Names(), ", "))
		}
	}
	known := Methods()
	for _, m := range methods {
		if !slices.Contains(known, m) {
			return fmt.Errorf("experiments: unknown method %q (have %s)", m, strings.Join(known, ", "))
		}
	}
	return nil
}

// Run executes the spec on backend b, skipping runs already recorded, and
// returns the results file. The invocation is recorded in the file as one
// session (results.Session), ended even when a run fails.
func Run(ctx context.Context, b compute.Backend, info backend.Info, spec Spec) (*results.File, error) {
	return runSession(ctx, b, info, spec, nil)
}

// runSession is Run for each of variants (spec when empty: variants of one
// spec differing in Override, e.g. the depths of the depth study), in one
// session recorded under spec's names.
func runSession(ctx context.Context, b compute.Backend, info backend.Info, spec Spec, variants []Spec) (*results.File, error) {
	if spec.Experiment == "" || spec.ResultsPath == "" {
		return nil, fmt.Errorf("experiments: spec needs an experiment name and a results path")
	}
	if err := checkNames(spec.Datasets, spec.Methods); err != nil {
		return nil, err
	}
	if spec.Workers > 1 && (spec.Worker < 0 || spec.Worker >= spec.Workers) {
		return nil, fmt.Errorf("experiments: worker %d of %d: want 0 <= worker < workers", spec.Worker, spec.Workers)
	}
	file, err := results.Open(spec.ResultsPath)
	if err != nil {
		return nil, err
	}
	command := spec.Command
	if command == "" {
		command = "experiments.Run"
	}
	sess := results.NewSession(command, spec.Experiment, spec.Datasets, spec.Methods, info.Name, batchModeName(spec.Batch))
	if err := file.BeginSession(sess); err != nil {
		return file, err
	}
	if len(variants) == 0 {
		variants = []Spec{spec}
	}
	pseudo := labelwise.NewPseudoCache() // f_P shared by the variants, methods and cells
	var reused []reusedFile
	for _, r := range spec.Reuse {
		f, openErr := results.Open(r.Path)
		if openErr != nil {
			err = openErr
			break
		}
		reused = append(reused, reusedFile{f, r.Experiment})
	}
	for _, v := range variants {
		if err != nil {
			break
		}
		v.reused = reused
		if err = runSpec(ctx, b, info, v, file, pseudo); err != nil {
			break
		}
	}
	if endErr := file.EndSession(err); err == nil {
		err = endErr
	}
	return file, err
}

// runSpec runs the spec's cells into an open file.
func runSpec(ctx context.Context, b compute.Backend, info backend.Info, spec Spec, file *results.File,
	pseudo *labelwise.PseudoCache) error {
	logf := func(format string, args ...any) {
		if spec.Log != nil {
			fmt.Fprintf(spec.Log, format+"\n", args...)
		}
	}
	if spec.Progress == nil {
		spec.Progress = train.Silent{}
	}
	for _, ds := range spec.Datasets {
		g, err := LoadGraph(ctx, ds, spec.DatasetOptions...)
		if err != nil {
			return fmt.Errorf("experiments: %s: %w", ds, err)
		}
		runs := Protocol(ds, len(g.Splits()))
		if len(spec.Splits) > 0 {
			runs = slices.DeleteFunc(runs, func(r train.Run) bool { return !slices.Contains(spec.Splits, r.Split) })
			if len(runs) == 0 {
				logf("%s: none of splits %v (it has %d): nothing to run", ds, spec.Splits, len(g.Splits()))
				continue
			}
		}
		if spec.MaxRuns > 0 && len(runs) > spec.MaxRuns {
			runs = runs[:spec.MaxRuns]
		}
		if runs = WorkerShare(runs, spec.Worker, spec.Workers); len(runs) == 0 {
			logf("%s: no runs for worker %d of %d", ds, spec.Worker, spec.Workers)
			continue
		}
		for _, name := range spec.Methods {
			if err := runMethod(ctx, b, info, spec, file, g, ds, name, runs, pseudo, logf); err != nil {
				return err
			}
		}
	}
	return nil
}

func runMethod(ctx context.Context, b compute.Backend, info backend.Info, spec Spec, file *results.File,
	g *graph.Graph, ds, name string, runs []train.Run, pseudo *labelwise.PseudoCache, logf func(string, ...any)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	env := Env{Backend: b, Info: info, Graph: g, Dataset: ds, Progress: spec.Progress, Override: spec.Override, Pseudo: pseudo}
	m, err := NewMethod(name, env)
	if err != nil {
		return fmt.Errorf("experiments: %s on %s: %w", name, ds, err)
	}
	config := m.Config()
	var missing []train.Run
	for _, r := range runs {
		if file.Has(RunKey(spec.Experiment, ds, name, r, config)) {
			logf("%s %s %s split %d seed %d: recorded, skipped", spec.Experiment, ds, name, r.Split, r.Seed)
			continue
		}
		if spec.recordedElsewhere(ds, name, r, config) {
			logf("%s %s %s split %d seed %d: recorded in another table, reused", spec.Experiment, ds, name, r.Split, r.Seed)
			continue
		}
		missing = append(missing, r)
	}
	if len(missing) == 0 {
		return nil
	}
	// Each run is recorded as soon as it is trained (a resumed invocation
	// skips it).
	err = TrainRuns(ctx, spec.Batch, name, m, missing, logf, func(i int, o Outcome, perBatch int, secs float64) error {
		r := missing[i]
		run := RunRecord(spec.Experiment, ds, name, m, r, o, perBatch, secs, info)
		if spec.Tag != "" {
			run.Options["tag"] = spec.Tag
		}
		if err := file.Put(run); err != nil {
			return err
		}
		w := ""
		if o.SelectionWeight != nil {
			w = fmt.Sprintf(", weight f_C %.3f", *o.SelectionWeight)
		}
		if auc, ok := o.Metrics[MetricTestROCAUC]; ok {
			w += fmt.Sprintf(", ROC-AUC test %.2f %% (val %.2f %%)", 100*auc, 100*o.Metrics[MetricValROCAUC])
		}
		how := "alone"
		if perBatch > 0 {
			how = fmt.Sprintf("batched %d per computation", perBatch)
		}
		logf("%s %s %s split %d seed %d [%d/%d]: test %.2f %% (val %.2f %%, epoch %d%s), %.1f ms/epoch, %.1f s, %s",
			spec.Experiment, ds, name, r.Split, r.Seed, i+1, len(missing), 100*o.TestAcc, 100*o.ValAcc, o.BestEpoch, w,
			o.MsPerEpoch, run.TotalSecs, how)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("experiments: %s on %s: %w", name, ds, err)
	}
	return nil
}
