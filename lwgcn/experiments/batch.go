package experiments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/train/batched"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// Batch modes of Spec.Batch and SweepSpec.Batch; a value N > 1 trains the
// missing runs of every cell whose method has a batched form N at a time.
const (
	// BatchAuto batches the methods BatchedByDefault names, the batch size
	// chosen from memory (batched.BatchSizeFor); the others run alone.
	BatchAuto = 0
	// BatchAlone trains every run alone (the unbatched path).
	BatchAlone = 1
)

// batchedByDefault are the methods BatchAuto trains batched: those whose
// batched split-epoch measured faster than alone (`lwgcn bench-batched`,
// 10 runs per batch, on the idle 2-core machine; results/bench-batched.json).
// At two threads, the default: GCN 1.25-1.68x, GAT 1.59-1.93x, MLP
// 0.98-1.31x (Squirrel's 0.98x is within the blocks' spread; at one thread
// MLP is 0.87x on Texas, a 0.7 ms difference, and 1.02-1.37x elsewhere),
// GCNII up to GCNIIAutoBatchMaxWork (below), GPRGNN from
// GPRGNNAutoBatchMinEdges (below), FAGCN from FAGCNAutoBatchMinEdges
// (below). Measured and left alone: LW-GCN 0.70-1.07x, so its ablations
// stay alone too. The other baselines have no batched form. `-batch N`
// batches any method with a batched form on request. Flip an entry here
// when a measurement says so.
var batchedByDefault = map[string]bool{
	"gcn": true, "gat": true, "gcnii": true, "gprgnn": true, "mlp": true, "fagcn": true,
}

// GCNIIAutoBatchMaxWork bounds the per-run size of a GCNII that BatchAuto
// batches, layers × nodes × hidden: batching pays while an epoch is many
// small products and loses once each product is large. Measured
// (bench-batched, idle, 10 runs; batched ÷ alone speed at 1 / 2 threads):
// faster on Texas, 32 × 183 × 64 = 0.37M (1.12x / 1.03x), Chameleon,
// 8 × 2277 × 64 = 1.2M (1.33x / 1.20x), and Squirrel, 8 × 5201 × 64 = 2.7M
// (1.76x / 1.52x); slower on Cora, 64 × 2708 × 64 = 11M (0.96x / 0.89x), and
// Citeseer, 32 × 3327 × 256 = 27M (0.86x / 0.80x).
const GCNIIAutoBatchMaxWork = 5_000_000

// GPRGNNAutoBatchMinEdges is the number of edges from which BatchAuto
// batches GPRGNN: its K steps propagate C-wide rows, so a run alone pays the
// gather's per-row cost for little data, and R runs share it. Measured
// (bench-batched, 10 runs, on a machine shared with two protocol runs:
// wall times vary between measurements, CPU times less; batched ÷ alone
// at 1 / 2 threads, wall (CPU)): Squirrel, 217,073 edges, 3.1-7.5x (3.3x)
// / 2.8x (3.0x); Chameleon, 36,101, 2.6x (2.5x) / 2.1x (2.3x); Cora,
// 10,556, 1.4x (1.3x) / 0.8x (1.2x); Texas, 325, 1.1x (1.1x) / 0.9x (1.1x).
// Below the bound the gain is small or, in wall time, lost.
const GPRGNNAutoBatchMinEdges = 20_000

// FAGCNAutoBatchMinEdges is the number of edges from which BatchAuto
// batches FAGCN: R runs share the gathers of the edge-weighted aggregation
// (sparse.MulWeightedRuns), which pays on large graphs and not on small
// ones. Measured (bench-batched, 10 runs, machine shared with two 1-thread
// protocol runs; batched ÷ alone at 1 / 2 threads): Squirrel, 217,073
// edges, 1.59x / 1.74x; Chameleon, 36,101, 1.49x / 1.32x; Cora, 10,556,
// 1.09x / 1.08x; Texas, 325, 0.87x / 0.59x. (Before the entry-weight
// gradient reused the forward pass's blocks, batched FAGCN was 0.63-1.08x.)
const FAGCNAutoBatchMinEdges = 20_000

// autoBatcher is a Method whose configuration can keep BatchAuto from
// batching it although its method is batched by default.
type autoBatcher interface {
	// autoBatched says whether BatchAuto batches this configuration.
	autoBatched() bool
}

// BatchedByDefault reports whether BatchAuto trains method batched.
func BatchedByDefault(method string) bool { return batchedByDefault[method] }

// BatchedMethodsByDefault lists the methods BatchAuto batches, sorted.
func BatchedMethodsByDefault() []string { return sortedKeys(batchedByDefault) }

// batchModeName is the batch mode as recorded in sessions.
func batchModeName(n int) string {
	switch n {
	case BatchAuto:
		return "auto"
	case BatchAlone:
		return "alone"
	}
	return strconv.Itoa(n)
}

// batchRunner is a Method that can train several runs in one computation.
type batchRunner interface {
	// batchable says whether this configuration has a batched form.
	batchable() bool
	// runBatch trains runs, size at a time (0: as many as memory allows;
	// 0 returned when not even one run fits, and nothing trained), and
	// returns their outcomes in order and the runs per computation.
	runBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error)
}

// batchSize is the runs per computation mode asks for method (0: from
// memory), and whether it batches the method at all.
func batchSize(mode int, method string, m Method) (size int, ok bool) {
	br, isBR := m.(batchRunner)
	if !isBR || !br.batchable() {
		return 0, false
	}
	switch {
	case mode == BatchAlone:
		return 0, false
	case mode == BatchAuto:
		if ab, ok := m.(autoBatcher); ok && !ab.autoBatched() {
			return 0, false
		}
		return 0, BatchedByDefault(method)
	}
	return mode, true
}

// cellOutcomes trains the missing runs of one cell: together when the mode
// batches the method, else one at a time. It hands each run to record as
// soon as it is trained (alone: after every run; batched: after its batch),
// with its index in missing, its outcome, the runs per computation (0:
// alone) and its share of the wall time, so that a killed invocation keeps
// every run finished before the kill. It stops at the first error, from
// training or from record.
func cellOutcomes(ctx context.Context, mode int, name string, m Method, missing []train.Run,
	logf func(string, ...any), record func(i int, o Outcome, perBatch int, secs float64) error) error {
	if size, ok := batchSize(mode, name, m); ok && len(missing) > 0 {
		start := time.Now()
		outs, r, err := m.(batchRunner).runBatch(ctx, missing, size)
		if err != nil {
			return err
		}
		if r > 0 {
			share := time.Since(start).Seconds() / float64(len(outs))
			for i, o := range outs {
				if err := record(i, o, r, share); err != nil {
					return err
				}
			}
			return nil
		}
		logf("%s: one run does not fit the batch memory budget (batched.DefaultMemoryBudget): trained alone", name)
	}
	for i, r := range missing {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		o, err := m.Run(ctx, r.Split, r.Seed)
		if err != nil {
			return fmt.Errorf("split %d, seed %d: %w", r.Split, r.Seed, err)
		}
		if err := record(i, o, 0, time.Since(start).Seconds()); err != nil {
			return err
		}
	}
	return nil
}

// --- zoo models ---

// batchModel returns the entry's model and training, and whether they have
// a batched form (no custom epoch or phases: batched.Trainer runs the
// standard epoch).
func (m *zooMethod) batchModel() (nn.Model, zoo.Training, bool) {
	e, _ := zoo.Lookup(m.name)
	nm, tr, err := e.Build(m.hyper)
	if err != nil || tr.Epoch != nil || len(tr.Phases) > 0 || m.hyper.Selection().By == train.ByValROCAUC {
		return nil, tr, false
	}
	if _, err := batched.For(nm); err != nil {
		return nil, tr, false
	}
	return nm, tr, true
}

func (m *zooMethod) batchable() bool { _, _, ok := m.batchModel(); return ok }

// autoBatched keeps a GCNII above GCNIIAutoBatchMaxWork, a GPRGNN below
// GPRGNNAutoBatchMinEdges and a FAGCN below FAGCNAutoBatchMinEdges alone
// under BatchAuto; the other zoo methods follow batchedByDefault.
func (m *zooMethod) autoBatched() bool {
	switch m.name {
	case "gcnii":
		return gcniiWork(m.hyper.Layers, m.env.Graph.NumNodes(), m.hyper.Hidden) <= GCNIIAutoBatchMaxWork
	case "gprgnn":
		return len(m.env.Graph.Src()) >= GPRGNNAutoBatchMinEdges
	case "fagcn":
		return len(m.env.Graph.Src()) >= FAGCNAutoBatchMinEdges
	}
	return true
}

// gcniiWork is a GCNII's per-run size for GCNIIAutoBatchMaxWork.
func gcniiWork(layers, nodes, hidden int) int { return layers * nodes * hidden }

func (m *zooMethod) runBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error) {
	nm, tr, ok := m.batchModel()
	if !ok {
		return nil, 0, fmt.Errorf("experiments: %s has no batched form", m.name)
	}
	e, _ := zoo.Lookup(m.name)
	g := e.Prepare(m.env.Graph, m.hyper)
	if size == 0 {
		if size = batched.BatchSizeFor(g, nm, 0); size == 0 {
			return nil, 0, nil
		}
	}
	epochs := m.hyper.Epochs
	if epochs == 0 {
		epochs = zoo.DefaultEpochs
	}
	t, err := batched.New(m.env.Backend, nm, g, batched.Config{Epochs: epochs, LR: m.hyper.LR,
		WeightDecay: m.hyper.WeightDecay, Optimizer: tr.Optimizer, BatchSize: size, Progress: m.env.Progress,
		Backend: m.env.Info, Selection: m.hyper.Selection()})
	if err != nil {
		return nil, 0, err
	}
	res, err := t.Run(ctx, runs)
	if err != nil {
		return nil, 0, err
	}
	outs := make([]Outcome, len(runs))
	for i, rr := range res.Runs {
		outs[i] = Outcome{TestAcc: rr.TestAcc, ValAcc: rr.ValAcc, TrainAcc: rr.TrainAcc, BestEpoch: rr.BestEpoch,
			Epochs: rr.Epochs, MsPerEpoch: rr.MsPerEpoch, CompileSecs: t.CompileTime().Seconds() / float64(len(runs))}
		rr.Finalize()
	}
	return outs, t.BatchSize(), nil
}

// --- LW-GCN ---

func (m *lwgcnMethod) batchable() bool { return m.cfg.RefineRounds == 0 && !m.cfg.SelectROCAUC }

// memoryModel is the batched model whose memory estimate sizes LW-GCN's
// batches (f_C, with f_G under selection; f_P is smaller than f_C).
func (m *lwgcnMethod) memoryModel() nn.Model {
	c := m.cfg
	fc := labelwise.LabelWiseGCN{Variant: c.Variant, Layers: c.Layers, Hidden: c.Hidden, Dropout: c.Dropout}
	switch c.Backbone {
	case labelwise.BackboneGCNII:
		fg := models.GCNII{Layers: c.GCNIILayers, Hidden: c.Hidden, Dropout: c.Dropout, Alpha: c.Alpha, Lambda: c.Lambda}
		return &labelwise.BatchedSelection{Selection: labelwise.Selection{FC: fc, FG: fg}}
	case labelwise.BackboneGCN:
		return &labelwise.BatchedSelection{Selection: labelwise.Selection{FC: fc, FG: models.GCN{Hidden: c.Hidden, Dropout: c.Dropout}}}
	}
	return labelwise.BatchedFC{LabelWiseGCN: fc}
}

func (m *lwgcnMethod) runBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error) {
	if size == 0 {
		if size = batched.BatchSizeFor(m.env.Graph, m.memoryModel(), 0); size == 0 {
			return nil, 0, nil
		}
	}
	size = min(size, len(runs))
	br, err := labelwise.NewBatchedRunner(m.env.Backend, m.env.Info, m.env.Graph, m.cfg, size, m.env.Progress)
	if err != nil {
		return nil, 0, err
	}
	res, err := br.Run(ctx, runs)
	if err != nil {
		return nil, 0, err
	}
	outs := make([]Outcome, len(runs))
	for i, r := range res {
		outs[i] = m.outcome(r)
		r.Finalize()
	}
	return outs, size, nil
}
