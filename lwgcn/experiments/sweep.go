package experiments

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// The paper's synthetic sweep (Fig. 2 and the appendix figure): homophily
// 0.0 to 0.9 in steps of 0.1, average degree 5, 10 and 20, GCN, GAT, MLP and
// LW-GCN\G (label-wise aggregation without model selection).
var (
	SweepHs      = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	SweepDegrees = []float64{5, 10, 20}
	SweepMethods = []string{"mlp", "gcn", "gat", "lwgcn-g"}
)

// BaseCSBM names the contextual SBM base of a sweep (generated at every
// point rather than resampled from a dataset).
const BaseCSBM = "csbm"

// SweepSpec describes a homophily sweep.
type SweepSpec struct {
	// Base is a dataset whose edges Algorithm 2 resamples at every point
	// (the paper used Crocodile; chameleon and squirrel are here), or
	// BaseCSBM.
	Base string
	// CSBM configures the CSBM base (Homophily and AverageDegree are set per
	// point); zero value: synth.DefaultCSBMConfig.
	CSBM    synth.CSBMConfig
	Hs      []float64
	Degrees []float64
	Methods []string
	// MaxRuns > 0 keeps the first MaxRuns (split, seed) runs per point.
	MaxRuns int
	// Worker and Workers share the sweep between processes as Spec's do:
	// of each point's runs (after MaxRuns), this process keeps those at
	// positions Worker, Worker+Workers, ...
	Worker, Workers int
	Override        Overrides
	// Seed seeds the graph generator (each point gets its own stream).
	Seed           uint64
	ResultsPath    string
	DatasetOptions []datasets.Option
	Log            func(string)
	Progress       train.Progress
	Tag            string
	// Batch is the batch mode (as Spec.Batch).
	Batch int
	// Command names the invocation in the session record; empty:
	// "experiments.SweepHomophily".
	Command string
}

// SweepPoint names one generated graph of a sweep.
type SweepPoint struct {
	H, Degree float64
}

func (p SweepPoint) String() string { return fmt.Sprintf("h=%.2f,d=%g", p.H, p.Degree) }

// sweepGraph generates the graph of one point.
func sweepGraph(ctx context.Context, spec SweepSpec, base *graph.Graph, p SweepPoint, index int) (*graph.Graph, synth.Realised, error) {
	rng := rand.New(rand.NewPCG(spec.Seed, uint64(index)+1))
	if spec.Base == BaseCSBM {
		cfg := spec.CSBM
		if cfg.NumNodes == 0 {
			cfg = synth.DefaultCSBMConfig()
		}
		cfg.Homophily, cfg.AverageDegree = p.H, p.Degree
		cfg.Name = fmt.Sprintf("csbm[%s]", p)
		c, err := synth.GenerateCSBM(cfg, rng)
		if err != nil {
			return nil, synth.Realised{}, err
		}
		if c.Graph.NumEdges() == 0 {
			return nil, synth.Realised{}, fmt.Errorf("the CSBM graph generated for degree %g on %d nodes has no edges", p.Degree, cfg.NumNodes)
		}
		return c.Graph, c.Realised, nil
	}
	g, r, err := synth.ResampleHomophily(base, p.H, p.Degree, rng)
	if err != nil {
		return nil, r, err
	}
	if g.NumEdges() == 0 {
		// Its homophily is undefined: the point would record noise.
		return nil, r, fmt.Errorf("the graph generated for degree %g on %d nodes has no edges", p.Degree, g.NumNodes())
	}
	return g.WithName(fmt.Sprintf("%s[%s]", spec.Base, p)), r, nil
}

// SweepHomophily trains every method on graphs generated at every (h, d)
// point and records the test accuracy per split, resuming recorded runs.
// Each run records the target and realised homophily and degree.
func SweepHomophily(ctx context.Context, b compute.Backend, info backend.Info, spec SweepSpec) (*results.File, error) {
	spec, err := checkSweepSpec(spec)
	if err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) {
		if spec.Log != nil {
			spec.Log(fmt.Sprintf(format, args...))
		}
	}
	file, err := results.Open(spec.ResultsPath)
	if err != nil {
		return nil, err
	}
	command := spec.Command
	if command == "" {
		command = "experiments.SweepHomophily"
	}
	sess := results.NewSession(command, "sweep", []string{spec.Base}, spec.Methods, info.Name, batchModeName(spec.Batch))
	if err := file.BeginSession(sess); err != nil {
		return file, err
	}
	err = sweepPoints(ctx, b, info, spec, file, labelwise.NewPseudoCache(), logf, nil)
	if endErr := file.EndSession(err); err == nil {
		err = endErr
	}
	return file, err
}

// SweepPlan is what SweepHomophily will train for a spec: the runs not yet
// recorded in its results file and the training epochs they report to
// SweepSpec.Progress (each run's reference or overridden epochs, times the
// rounds of a refinement; an edge-free method's runs at a degree's later h
// values are copies and train nothing).
type SweepPlan struct {
	Runs, Epochs int
	// Copies counts the runs recorded as copies of an edge-free method's
	// run at the degree's first h.
	Copies int
}

// PlanSweep returns the spec's SweepPlan without training or writing
// anything: it generates the points' graphs and builds the methods as the
// sweep does, and reads the results file (absent: nothing recorded), so a
// progress display can show the whole sweep's epochs from the start.
func PlanSweep(ctx context.Context, b compute.Backend, info backend.Info, spec SweepSpec) (SweepPlan, error) {
	spec, err := checkSweepSpec(spec)
	if err != nil {
		return SweepPlan{}, err
	}
	file, err := results.Open(spec.ResultsPath) // reads; absent: empty
	if err != nil {
		return SweepPlan{}, err
	}
	spec.Progress = train.Silent{}
	plan := &sweepPlan{planned: map[string]bool{}}
	err = sweepPoints(ctx, b, info, spec, file, labelwise.NewPseudoCache(), func(string, ...any) {}, plan)
	return plan.SweepPlan, err
}

// sweepPlan accumulates a dry run of sweepPoints: planned holds the keys
// of the runs it would train.
type sweepPlan struct {
	SweepPlan
	planned map[string]bool
}

// checkSweepSpec validates a spec and fills its defaults.
func checkSweepSpec(spec SweepSpec) (SweepSpec, error) {
	if spec.ResultsPath == "" || spec.Base == "" {
		return spec, fmt.Errorf("experiments: sweep needs a base and a results path")
	}
	if len(spec.Hs) == 0 {
		spec.Hs = SweepHs
	}
	if len(spec.Degrees) == 0 {
		spec.Degrees = SweepDegrees
	}
	if len(spec.Methods) == 0 {
		spec.Methods = SweepMethods
	}
	var bases []string
	if spec.Base != BaseCSBM {
		bases = []string{spec.Base}
	}
	if err := checkNames(bases, spec.Methods); err != nil {
		return spec, err
	}
	for _, h := range spec.Hs {
		if !(h >= 0 && h <= 1) {
			return spec, fmt.Errorf("experiments: sweep homophily %v outside [0, 1]", h)
		}
	}
	for _, d := range spec.Degrees {
		// A graph without edges has no homophily (its realised h is NaN).
		if !(d > 0) || math.IsInf(d, 0) {
			return spec, fmt.Errorf("experiments: sweep average degree %v must be a finite number > 0", d)
		}
	}
	if spec.Workers > 1 && (spec.Worker < 0 || spec.Worker >= spec.Workers) {
		return spec, fmt.Errorf("experiments: sweep worker %d of %d: want 0 <= worker < workers", spec.Worker, spec.Workers)
	}
	if spec.Progress == nil {
		spec.Progress = train.Silent{}
	}
	return spec, nil
}

// sweepPoints trains the sweep's points into an open file.
// pseudo shares LW-GCN's f_P between the points (the same nodes, features,
// labels and splits; f_P ignores the edges). With a non-nil plan it trains
// and writes nothing and adds what it would train to the plan.
func sweepPoints(ctx context.Context, b compute.Backend, info backend.Info, spec SweepSpec, file *results.File,
	pseudo *labelwise.PseudoCache, logf func(string, ...any), plan *sweepPlan) error {
	var base *graph.Graph
	var err error
	if spec.Base != BaseCSBM {
		if base, err = LoadGraph(ctx, spec.Base, spec.DatasetOptions...); err != nil {
			return err
		}
	}
	index := 0
	total := len(spec.Hs) * len(spec.Degrees)
	for _, d := range spec.Degrees {
		for _, h := range spec.Hs {
			p := SweepPoint{H: h, Degree: d}
			index++
			g, real, err := sweepGraph(ctx, spec, base, p, index)
			if err != nil {
				return fmt.Errorf("experiments: sweep point %s: %w", p, err)
			}
			logf("sweep %s point %d/%d %s: realised h %.3f, degree %.2f (%d homophilic + %d heterophilic pairs added)",
				spec.Base, index, total, p, real.H, real.AverageDegree, real.HomophilicAdded, real.HeterophilicAdded)
			runs := Protocol(spec.Base, len(g.Splits()))
			if spec.MaxRuns > 0 && len(runs) > spec.MaxRuns {
				runs = runs[:spec.MaxRuns]
			}
			runs = WorkerShare(runs, spec.Worker, spec.Workers)
			for _, name := range spec.Methods {
				if err := sweepMethod(ctx, b, info, spec, file, g, p, real, name, runs, pseudo, logf, plan); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// edgeFree are the methods that never read the edges: at every h of one
// degree of an Algorithm 2 sweep (same nodes, features, labels, splits and
// seeds) their runs are the same computation, so the sweep trains them at
// the degree's first h and records that run at the others with a note.
var edgeFree = map[string]bool{"mlp": true}

// sweepKey is the results key of one sweep run.
func sweepKey(spec SweepSpec, name string, p SweepPoint, r train.Run, config string) string {
	return fmt.Sprintf("sweep|%s|%s|%s|split=%d|seed=%d|cfg=%s", spec.Base, name, p, r.Split, r.Seed, shortHash(config))
}

func sweepMethod(ctx context.Context, b compute.Backend, info backend.Info, spec SweepSpec, file *results.File,
	g *graph.Graph, p SweepPoint, real synth.Realised, name string, runs []train.Run, pseudo *labelwise.PseudoCache,
	logf func(string, ...any), plan *sweepPlan) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	env := Env{Backend: b, Info: info, Graph: g, Dataset: spec.Base, Progress: spec.Progress, Override: spec.Override,
		Pseudo: pseudo}
	m, err := NewMethod(name, env)
	if err != nil {
		return fmt.Errorf("experiments: sweep %s at %s: %w", name, p, err)
	}
	config := fmt.Sprintf("%s|seed=%d|%s", m.Config(), spec.Seed, csbmKey(spec))
	params := m.Params()
	params["h"], params["degree"], params["realised_h"], params["realised_degree"] = p.H, p.Degree, real.H, real.AverageDegree
	record := func(r train.Run, o Outcome, secs float64, perBatch int, note string) error {
		run := results.Run{Key: sweepKey(spec, name, p, r, config), Experiment: "sweep", Dataset: spec.Base, Model: name,
			Split: r.Split, Seed: r.Seed, Params: maps.Clone(params),
			Options: map[string]string{"config": shortHash(config), "point": p.String()},
			TestAcc: o.TestAcc, ValAcc: o.ValAcc, TrainAcc: o.TrainAcc, BestEpoch: o.BestEpoch, Epochs: o.Epochs,
			Metrics: o.Metrics, MsPerEpoch: o.MsPerEpoch, CompileSecs: o.CompileSecs, Compiles: &o.Compiles, TotalSecs: secs,
			BatchRuns: perBatch, Note: note, Provenance: results.NewProvenance(info.Name)}
		if spec.Tag != "" {
			run.Options["tag"] = spec.Tag
		}
		if err := file.Put(run); err != nil {
			return err
		}
		logf("  %s split %d: test %.1f %%%s", MethodTitle(name), r.Split, 100*o.TestAcc, map[bool]string{true: " (" + note + ")"}[note != ""])
		return nil
	}
	// The degree's first h, whose runs an edge-free method shares.
	first := SweepPoint{H: spec.Hs[0], Degree: p.Degree}
	if plan != nil {
		copies := edgeFree[name] && spec.Base != BaseCSBM && p != first
		for _, r := range runs {
			key, firstKey := sweepKey(spec, name, p, r, config), sweepKey(spec, name, first, r, config)
			switch {
			case file.Has(key):
			case copies && (file.Has(firstKey) || plan.planned[firstKey]):
				plan.Copies++
			default:
				plan.planned[key] = true
				plan.Runs++
				// A refinement retrains its models once per round.
				plan.Epochs += int(params["epochs"]) * (1 + int(params["refine_rounds"]))
			}
		}
		return nil
	}
	var missing []train.Run
	for _, r := range runs {
		if file.Has(sweepKey(spec, name, p, r, config)) {
			continue
		}
		if edgeFree[name] && spec.Base != BaseCSBM && p != first {
			if src, ok := file.Get(sweepKey(spec, name, first, r, config)); ok {
				note := fmt.Sprintf("same run as at %s: %s ignores the edges, and every h of a degree has the same "+
					"nodes, features, labels and splits, so it is trained once per split and degree", first, MethodTitle(name))
				o := Outcome{TestAcc: src.TestAcc, ValAcc: src.ValAcc, TrainAcc: src.TrainAcc, BestEpoch: src.BestEpoch,
					Epochs: src.Epochs, Metrics: src.Metrics, MsPerEpoch: src.MsPerEpoch}
				if err := record(r, o, 0, src.BatchRuns, note); err != nil {
					return err
				}
				continue
			}
		}
		missing = append(missing, r)
	}
	if len(missing) == 0 {
		return nil
	}
	err = TrainRuns(ctx, spec.Batch, name, m, missing, logf, func(i int, o Outcome, perBatch int, secs float64) error {
		return record(missing[i], o, secs, perBatch, "")
	})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("experiments: sweep %s at %s: %w", name, p, err)
	}
	return err
}

func csbmKey(spec SweepSpec) string {
	if spec.Base != BaseCSBM {
		return ""
	}
	return fmt.Sprintf("%+v", spec.CSBM)
}
