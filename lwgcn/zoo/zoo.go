package zoo

import (
	"encoding/json"
	"fmt"
	"math"
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

// Hyper are a model's hyperparameters: the union of what the entries use.
// Entries document which fields they read.
type Hyper struct {
	Hidden      int     `json:"hidden,omitempty"`
	Layers      int     `json:"layers,omitempty"`
	Heads       int     `json:"heads,omitempty"`
	Dropout     float64 `json:"dropout"`
	Alpha       float64 `json:"alpha,omitempty"`
	Lambda      float64 `json:"lambda,omitempty"`
	LR          float64 `json:"lr"`
	WeightDecay float64 `json:"weight_decay"`
	Epochs      int     `json:"epochs"`
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
	// before training, e.g. ToUndirected.
	Graph func(g *graph.Graph) *graph.Graph
	// EpochExtras are the Extra keys that count epochs within Hyper.Epochs
	// (BM-GCN's MLP pre-training epochs): WithEpochs scales them with it.
	EpochExtras []string
	// Notes explain, per dataset, why our reproduced accuracy may differ from
	// the paper's number (key "" applies to every dataset); docs/RESULTS.md
	// prints them next to the comparison.
	Notes map[string]string
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
	if e.Graph != nil {
		g = e.Graph(g)
	}
	epochs := h.Epochs
	if epochs == 0 {
		epochs = DefaultEpochs
	}
	cfg := train.Config{Epochs: epochs, LR: h.LR, WeightDecay: h.WeightDecay, Optimizer: tr.Optimizer, Epoch: tr.Epoch,
		Phases: tr.Phases, Progress: progress, Backend: info}
	for _, f := range configure {
		f(&cfg)
	}
	return train.New(b, m, g, cfg)
}

// Undirected is the Graph transform most baselines use: the symmetric
// closure of the edges (their reference code symmetrises the adjacency).
func Undirected(g *graph.Graph) *graph.Graph { return g.ToUndirected() }

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
