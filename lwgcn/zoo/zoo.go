package zoo

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Protocol defaults shared by the entries.
const (
	DefaultEpochs = 400
	DefaultLR     = 0.01
	DefaultWD     = 5e-4
)

// Extra keys every entry may set, for the preprocessing and the model
// selection of its official code (Prepare, Hyper.Selection). Being in the
// Hyper, they are part of a run's configuration (its results key) and are
// recorded with it.
const (
	// RawFeaturesKey = 1: the features as loaded, before the standard
	// preprocessing's row normalisation of the Planetoid graphs
	// (datasets.Standard): SuperGAT's, LINKX's and ASGC's loaders read PyG's
	// Planetoid without NormalizeFeatures. A no-op on graphs whose features
	// were not normalised.
	RawFeaturesKey = "raw_features"
	// SelectKey picks the reported epoch: 0 (or absent) the highest
	// validation accuracy, the protocol's; 1 the lowest validation loss
	// (GCNII, FAGCN on Planetoid); 2 the highest validation ROC-AUC (binary
	// tasks of Platonov et al.). See train.Criterion.
	SelectKey = "select"
	// TiesLaterKey = 1: an epoch equal to the best so far replaces it
	// (SuperGAT's ">=").
	TiesLaterKey = "ties_later"
	// PatienceKey > 0 stops a run after that many epochs without a new best
	// (GCNII's 100); PatienceBothKey = 1 counts the epochs that do not
	// improve the validation loss and accuracy together (FAGCN's 200).
	PatienceKey     = "patience"
	PatienceBothKey = "patience_both"
)

// planetoidRaw returns h reading the raw features on the Planetoid graphs,
// the only ones the standard preprocessing normalises (elsewhere the key
// would change nothing but the runs' keys).
func planetoidRaw(h Hyper, dataset string) Hyper {
	switch dataset {
	case "cora", "citeseer", "pubmed":
		return h.With(RawFeaturesKey, 1)
	}
	return h
}

// Selection is the model selection the Hyper's extras ask for (the zero
// Selection, the protocol's, when they are absent).
func (h Hyper) Selection() train.Selection {
	return train.Selection{By: train.Criterion(h.Get(SelectKey, 0)), LaterOnTies: h.Get(TiesLaterKey, 0) == 1,
		Patience: int(h.Get(PatienceKey, 0)), PatienceOnBoth: h.Get(PatienceBothKey, 0) == 1}
}

// Hyper are a model's hyperparameters: the union of what the entries use.
// Entries document which fields they read.
type Hyper struct {
	Hidden      int     `json:"hidden,omitempty" setting:"hidden"`
	Layers      int     `json:"layers,omitempty" setting:"layers"`
	Heads       int     `json:"heads,omitempty" setting:"heads"`
	Dropout     float64 `json:"dropout" setting:"dropout"`
	Alpha       float64 `json:"alpha,omitempty" setting:"alpha"`
	Lambda      float64 `json:"lambda,omitempty" setting:"lambda"`
	LR          float64 `json:"lr" setting:"lr"`
	WeightDecay float64 `json:"weight_decay" setting:"wd"`
	Epochs      int     `json:"epochs" setting:"epochs"`
	// Extra holds model-specific settings (e.g. "k" for GPRGNN's steps).
	Extra map[string]float64 `json:"extra,omitempty"`
}

// Get returns Extra[key], or def when absent.
func (h Hyper) Get(key string, def float64) float64 {
	if v, ok := h.Extra[key]; ok {
		return v
	}
	return def
}

// With returns a copy with Extra[key] = v.
func (h Hyper) With(key string, v float64) Hyper {
	e := map[string]float64{}
	for k, x := range h.Extra {
		e[k] = x
	}
	e[key] = v
	h.Extra = e
	return h
}

// Key is a stable string of the hyperparameters (for result keys).
func (h Hyper) Key() string {
	b, _ := json.Marshal(h)
	return string(b)
}

// Training says how an entry's model is trained.
type Training struct {
	// Optimizer, if set, replaces the default single Adam group (lr, weight
	// decay of the Hyper), e.g. for per-layer weight decays.
	Optimizer *train.Optimizer
	// Epoch, if set, replaces train.StandardEpoch (auxiliary losses).
	Epoch train.EpochFunc
	// Phases, if set instead of Epoch, split every run into phases with
	// their own epoch graphs (train.Config.Phases).
	Phases []train.Phase
}

// Entry is a registered model.
type Entry struct {
	// Name is the registry key (lower case, e.g. "gcnii").
	Name string
	// Title and Paper describe it for tables and docs.
	Title, Paper string
	// Defaults returns the hyperparameters for a dataset.
	Defaults func(dataset string) Hyper
	// Build returns the model and how to train it.
	Build func(h Hyper) (nn.Model, Training, error)
	// Graph, if set, transforms the (standard-preprocessed) dataset graph
	// before training as the official loader does, e.g. Undirected; h is
	// the run's settings (GCNII's official pipelines differ per dataset).
	// Prepare applies it.
	Graph func(g *graph.Graph, h Hyper) *graph.Graph
	// AutoBatch, if set, says whether the protocol's runs of the entry with
	// settings h on the dataset graph g (before Graph) train faster several
	// in one computation than alone, as measured with `lwgcn
	// bench-batched`; experiments.BatchAuto batches them then. Without it
	// they run alone unless batching is asked for.
	AutoBatch func(g *graph.Graph, h Hyper) bool
	// EpochExtras are the Extra keys that count epochs within Hyper.Epochs
	// (BM-GCN's MLP pre-training epochs): WithEpochs scales them with it.
	EpochExtras []string
	// Notes explain, per dataset, why our reproduced accuracy may differ from
	// the paper's number (key "" applies to every dataset); docs/RESULTS.md
	// prints them next to the comparison.
	Notes map[string]string
}

// Prepare returns the graph the entry trains on with settings h: the
// standard-preprocessed dataset g (datasets.Standard) with the official
// loader's transforms, first the raw features when h asks for them
// (RawFeaturesKey), then the entry's Graph.
func (e Entry) Prepare(g *graph.Graph, h Hyper) *graph.Graph {
	if h.Get(RawFeaturesKey, 0) == 1 {
		g = g.WithUnnormalizedFeatures()
	}
	if e.Graph != nil {
		g = e.Graph(g, h)
	}
	return g
}

// Note returns the entry's note for dataset, else its general note.
func (e Entry) Note(dataset string) string {
	if n, ok := e.Notes[dataset]; ok {
		return n
	}
	return e.Notes[""]
}

// WithEpochs returns h set to train for n epochs, every epoch-counting extra
// (EpochExtras) scaled by the same factor, rounded and kept below n, so that
// a short run (quick mode, -epochs) keeps the reference's proportions: BM-GCN's
// 400 pre-training epochs of 2000 become 8 of 40. h.Epochs = 0 counts as
// DefaultEpochs.
func (e Entry) WithEpochs(h Hyper, n int) Hyper {
	old := h.Epochs
	if old == 0 {
		old = DefaultEpochs
	}
	h.Epochs = n
	for _, k := range e.EpochExtras {
		v, ok := h.Extra[k]
		if !ok {
			continue
		}
		scaled := math.Round(v * float64(n) / float64(old))
		h = h.With(k, max(0, min(scaled, float64(n-1))))
	}
	return h
}

// SettingNames are the settings Entry.Set knows (the flags of `lwgcn
// train`), in the order they are applied: epochs first (WithEpochs scales
// the extras that count epochs), the Hyper fields' setting tags, then
// "raw-features" (RawFeaturesKey).
var SettingNames = append(append([]string{"epochs"}, slices.DeleteFunc(train.SettingNames(Hyper{}),
	func(n string) bool { return n == "epochs" })...), "raw-features")

// ExtraPrefix names a model-specific setting (a key of Hyper.Extra that
// the entry's defaults set, e.g. "extra:relu" for H2GCN's ReLU on the
// embedding) in Set and `lwgcn train -extra`.
const ExtraPrefix = "extra:"

// Set returns h with one setting set by name (SettingNames, or ExtraPrefix
// and a key h.Extra has) to v; ok is false for a name it does not know.
// Validate and Build check the values.
func (e Entry) Set(h Hyper, name string, v float64) (_ Hyper, ok bool) {
	if key, extra := strings.CutPrefix(name, ExtraPrefix); extra {
		if _, has := h.Extra[key]; !has {
			return h, false
		}
		return h.With(key, v), true
	}
	switch name {
	case "epochs":
		return e.WithEpochs(h, int(v)), true
	case "raw-features":
		return h.With(RawFeaturesKey, v), true
	}
	ok = train.SetSetting(&h, name, v)
	return h, ok
}

var registry = map[string]Entry{}

// Register adds an entry; it panics on a duplicate or incomplete entry
// (registration happens in init functions).
func Register(e Entry) {
	if e.Name == "" || e.Defaults == nil || e.Build == nil {
		panic(fmt.Sprintf("zoo: incomplete entry %+v", e))
	}
	if _, dup := registry[e.Name]; dup {
		panic("zoo: duplicate entry " + e.Name)
	}
	registry[e.Name] = e
}

// Lookup returns the entry named name (case-insensitive).
func Lookup(name string) (Entry, bool) {
	e, ok := registry[strings.ToLower(name)]
	return e, ok
}

// Names returns the registered names, sorted.
func Names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// NewTrainer builds the entry's model with h and a trainer for it on g
// (transformed by the entry's Graph); configure, if given, adjusts the
// training configuration (checkpoints, ...).
func NewTrainer(b compute.Backend, info backend.Info, g *graph.Graph, name string, h Hyper, progress train.Progress,
	configure ...func(*train.Config)) (*train.Trainer, error) {
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("zoo: unknown model %q (have %s)", name, strings.Join(Names(), ", "))
	}
	if err := h.Validate(); err != nil {
		return nil, fmt.Errorf("zoo: %s: %w", name, err)
	}
	m, tr, err := e.Build(h)
	if err != nil {
		return nil, fmt.Errorf("zoo: %s: %w", name, err)
	}
	g = e.Prepare(g, h)
	epochs := h.Epochs
	if epochs == 0 {
		epochs = DefaultEpochs
	}
	cfg := train.Config{Epochs: epochs, LR: h.LR, WeightDecay: h.WeightDecay, Optimizer: tr.Optimizer, Epoch: tr.Epoch,
		Phases: tr.Phases, Progress: progress, Backend: info, Selection: h.Selection()}
	for _, f := range configure {
		f(&cfg)
	}
	return train.New(b, m, g, cfg)
}

// batchedFaster is AutoBatch for the entries measured faster batched on
// every dataset (`lwgcn bench-batched`, 10 runs per batch, the idle 2-core
// machine; results/bench-batched.json). At two threads, the default: GCN
// 1.25-1.68x, GAT 1.59-1.93x, MLP 0.98-1.31x (Squirrel's 0.98x is within the
// blocks' spread; at one thread MLP is 0.87x on Texas, a 0.7 ms difference,
// and 1.02-1.37x elsewhere).
func batchedFaster(*graph.Graph, Hyper) bool { return true }

// Undirected is the Graph transform most baselines use: the symmetric
// closure of the edges (their reference code symmetrises the adjacency).
func Undirected(g *graph.Graph, _ Hyper) *graph.Graph { return g.ToUndirected() }

// rowNormalized is the Graph transform of baselines whose loaders
// row-normalise the features and keep the edges as given.
func rowNormalized(g *graph.Graph, _ Hyper) *graph.Graph { return g.RowNormalizeFeatures() }

// lwgcnHidden is LW-GCN's hidden size per dataset, which the paper reuses for
// its MLP baseline.
func lwgcnHidden(dataset string) int {
	switch dataset {
	case "texas", "wisconsin":
		return 128
	case "cornell":
		return 32
	case "squirrel", "squirrel_filtered", "crocodile", "citeseer", "pubmed", "arxiv-year":
		return 256
	}
	return 64
}
