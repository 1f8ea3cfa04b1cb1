package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// Metric names of Outcome.Metrics for the two-class datasets of Platonov et
// al. (ROCAUCDataset): the selected epoch's validation and test ROC-AUC.
const (
	MetricValROCAUC  = "val_roc_auc"
	MetricTestROCAUC = "test_roc_auc"
)

// ROCAUCDataset reports whether a dataset is evaluated by ROC-AUC, with
// the epoch of best validation ROC-AUC: the two-class graphs of Platonov et
// al. (2023), minesweeper, tolokers and questions, as their protocol does.
// Every method run on them selects and reports so (zoo.SelectKey 2,
// labelwise.Config.SelectROCAUC).
func ROCAUCDataset(name string) bool {
	switch name {
	case "minesweeper", "tolokers", "questions":
		return true
	}
	return false
}

// Outcome is what one training run on one split reports.
type Outcome struct {
	TestAcc, ValAcc, TrainAcc float64
	BestEpoch, Epochs         int
	// SelectionWeight is LW-GCN's weight of f_C (nil for other methods).
	SelectionWeight *float64
	Metrics         map[string]float64
	MsPerEpoch      float64
	// CompileSecs and Compiles: the compiling done for this run (see
	// results.Run).
	CompileSecs float64
	Compiles    int
}

// Method trains one configuration on one dataset graph, split by split.
type Method interface {
	// Config is a stable description of the configuration (hashed into
	// result keys).
	Config() string
	// Describe is the configuration in one line for people.
	Describe() string
	// Params are the numeric settings recorded with each run.
	Params() map[string]float64
	// Run trains on one split with one seed.
	Run(ctx context.Context, split int, seed int64) (Outcome, error)
	// RunBatch trains runs, size per computation (train.BatchFromMemory:
	// as many as memory allows; then 0 runs per computation, and nothing
	// trained, when not even one fits), and returns their outcomes in
	// order and the runs per computation.
	RunBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error)
}

// OptionRecorder is a Method whose string settings (LW-GCN's f_C variant)
// go into each run's record (results.Run.Options) beside Params.
type OptionRecorder interface {
	Options() map[string]string
}

// Overrides adjust a method's reference configuration (grid search, quick
// runs, the flags of `lwgcn train`). Zero fields keep the reference.
type Overrides struct {
	Epochs int
	Hidden int
	// Layers is the depth: LW-GCN's label-wise layers of f_C, a baseline's
	// Layers (GCN and GCNII depth).
	Layers      int
	WeightDecay float64 // < 0 means 0 (0 keeps the reference)
	// Settings set settings by name, zero values included
	// (labelwise.Config.Set and zoo.Entry.Set; SettingNames lists a
	// method's). A name the method does not have is an error (ErrSetting).
	Settings map[string]float64
}

// ErrSetting is matched (errors.Is) by the errors of NewMethod for
// settings the method does not have or whose values it refuses.
var ErrSetting = errors.New("invalid setting")

// settingError is an error of the settings, which reads as its cause.
type settingError struct{ error }

func (e settingError) Is(target error) bool { return target == ErrSetting }
func (e settingError) Unwrap() error        { return e.error }

// settingErrorf formats a settingError.
func settingErrorf(format string, args ...any) error {
	return settingError{fmt.Errorf(format, args...)}
}

// setting is one setting by name.
type setting struct {
	name  string
	value float64
}

// settings are the overridden settings by name, in the order of names (a
// method's SettingNames: epochs first, which scales epoch-counting extras).
func (o Overrides) settings(names []string) ([]setting, error) {
	set := maps.Clone(o.Settings)
	if set == nil {
		set = map[string]float64{}
	}
	for name, v := range map[string]int{"epochs": o.Epochs, "hidden": o.Hidden, "layers": o.Layers} {
		if _, given := set[name]; !given && v > 0 {
			set[name] = float64(v)
		}
	}
	if _, given := set["wd"]; !given && o.WeightDecay != 0 {
		set["wd"] = max(o.WeightDecay, 0)
	}
	var out []setting
	for _, name := range names {
		if v, ok := set[name]; ok {
			out = append(out, setting{name, v})
			delete(set, name)
		}
	}
	if len(set) > 0 {
		return nil, settingErrorf("no setting %s (it has %s)", strings.Join(slices.Sorted(maps.Keys(set)), ", "),
			strings.Join(names, ", "))
	}
	return out, nil
}

// extraNames lists h's model-specific settings as zoo.Entry.Set names
// them, or "none".
func extraNames(h zoo.Hyper) string {
	var names []string
	for _, k := range slices.Sorted(maps.Keys(h.Extra)) {
		names = append(names, zoo.ExtraPrefix+k)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// SettingNames lists the settings of a method (Overrides.Settings).
func SettingNames(method string) []string {
	if _, ok := factories[method]; ok {
		return labelwise.SettingNames
	}
	return zoo.SettingNames
}

// Env is what a method factory gets.
type Env struct {
	Backend  compute.Backend
	Info     backend.Info
	Graph    *graph.Graph // standard-preprocessed dataset
	Dataset  string
	Progress train.Progress
	Override Overrides
	// Pseudo (nil: none) shares LW-GCN's f_P pseudo-labels between the runs
	// of an invocation that train f_P on the same nodes, split and seed
	// (labelwise.PseudoCache).
	Pseudo *labelwise.PseudoCache
	// CheckpointDir, if set, keeps a checkpoint per run there (runs one at
	// a time; a baseline's, see train.Config.CheckpointDir) and resumes the
	// runs it finds.
	CheckpointDir string
}

// Factory builds a method for a dataset.
type Factory func(env Env) (Method, error)

var factories = map[string]Factory{}

// RegisterMethod adds a method name (LW-GCN variants and every zoo entry are
// registered by this package).
func RegisterMethod(name string, f Factory) {
	if _, dup := factories[name]; dup {
		panic("experiments: duplicate method " + name)
	}
	factories[name] = f
}

// Methods lists the available method names: the LW-GCN variants and the zoo.
func Methods() []string {
	names := map[string]bool{}
	for n := range factories {
		names[n] = true
	}
	for _, n := range zoo.Names() {
		names[n] = true
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// NewMethod builds the named method for env. Settings whose training
// would need more memory than there is are refused (CheckSize) before any
// weight is allocated.
func NewMethod(name string, env Env) (Method, error) {
	var m Method
	var err error
	if f, ok := factories[name]; ok {
		m, err = f(env)
	} else if _, ok := zoo.Lookup(name); ok {
		m, err = newZooMethod(name, env)
	} else {
		return nil, fmt.Errorf("experiments: unknown method %q (have %s)", name, strings.Join(Methods(), ", "))
	}
	if err != nil {
		return nil, err
	}
	if err := CheckSize(env.Graph, m.Params()); err != nil {
		return nil, settingErrorf("experiments: %s: %w", name, err)
	}
	return m, nil
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:10]
}

// --- LW-GCN variants ---

func init() {
	variants := map[string]func(labelwise.Config) labelwise.Config{
		"lwgcn":         func(c labelwise.Config) labelwise.Config { return c },
		"lwgcn-p":       labelwise.Config.WithGCNPseudoLabels,
		"lwgcn-g":       labelwise.Config.WithoutSelection,
		"lwgcn-gcn":     labelwise.Config.WithGCNBackbone,
		"lwgcn+refine1": func(c labelwise.Config) labelwise.Config { c.RefineRounds = 1; return c },
		"lwgcn+refine2": func(c labelwise.Config) labelwise.Config { c.RefineRounds = 2; return c },
	}
	for name, f := range variants {
		RegisterMethod(name, func(env Env) (Method, error) {
			if env.CheckpointDir != "" {
				return nil, settingErrorf("LW-GCN keeps no checkpoints")
			}
			cfg := f(labelwise.Defaults(env.Dataset))
			set, err := env.Override.settings(labelwise.SettingNames)
			if err != nil {
				return nil, err
			}
			for _, s := range set {
				cfg.Set(s.name, s.value)
			}
			if err := cfg.Validate(); err != nil {
				return nil, settingError{err}
			}
			cfg.SelectROCAUC = ROCAUCDataset(env.Dataset)
			m := &lwgcnMethod{cfg: cfg, env: env, runners: map[int]*labelwise.Runner{}}
			if _, err := m.runner(1); err != nil {
				return nil, err
			}
			return m, nil
		})
	}
}

type lwgcnMethod struct {
	cfg     labelwise.Config
	env     Env
	runners map[int]*labelwise.Runner // by runs per computation
}

// Describe implements Method.
func (m *lwgcnMethod) Describe() string {
	c := m.cfg
	return fmt.Sprintf("%s: f_C %s variant, %d layers, hidden %d, dropout %g; f_G %s (%d layers); lr %g, wd %g, %d epochs",
		c.Name(), c.Variant, c.Layers, c.Hidden, c.Dropout, c.Backbone, c.GCNIILayers, c.LR, c.WeightDecay, c.Epochs)
}

func (m *lwgcnMethod) Config() string {
	b, _ := json.Marshal(m.cfg)
	return string(b)
}

// Options names f_C's variant in each run's record (results.Run.Options),
// the one setting Params cannot hold as a number.
func (m *lwgcnMethod) Options() map[string]string {
	return map[string]string{"variant": m.cfg.Variant.String()}
}

func (m *lwgcnMethod) Params() map[string]float64 {
	c := m.cfg
	p := map[string]float64{"hidden": float64(c.Hidden), "layers": float64(c.Layers), "dropout": c.Dropout,
		"lr": c.LR, "weight_decay": c.WeightDecay, "epochs": float64(c.Epochs)}
	if c.Backbone == labelwise.BackboneGCNII {
		p["gcnii_layers"], p["alpha"], p["lambda"] = float64(c.GCNIILayers), c.Alpha, c.Lambda
	}
	if c.RefineRounds > 0 {
		p["refine_rounds"] = float64(c.RefineRounds)
	}
	return p
}

func (m *lwgcnMethod) Run(ctx context.Context, split int, seed int64) (Outcome, error) {
	r, err := m.runner(1)
	if err != nil {
		return Outcome{}, err
	}
	res, err := r.Run(ctx, split, seed)
	if err != nil {
		return Outcome{}, err
	}
	defer res.Finalize()
	return m.outcome(res), nil
}

// outcome reads a split's result (alone or from a batch).
func (m *lwgcnMethod) outcome(res *labelwise.SplitResult) Outcome {
	f := res.Final()
	o := Outcome{TestAcc: f.TestAcc, ValAcc: f.ValAcc, TrainAcc: f.TrainAcc, BestEpoch: f.BestEpoch,
		Epochs: m.cfg.Epochs, MsPerEpoch: f.MsPerEpoch, CompileSecs: res.CompileSecs, Compiles: res.Compiles,
		Metrics: map[string]float64{"pseudo_acc": f.PseudoAcc, "fp_test_acc": res.PseudoTestAcc,
			"fp_ms_per_epoch": res.PseudoMsPerEpoch}}
	if res.PseudoShared {
		o.Metrics["fp_shared"] = 1 // f_P trained by an earlier run of the invocation
	}
	if m.cfg.Backbone != labelwise.BackboneNone {
		w := f.WeightFC
		o.SelectionWeight = &w
	}
	if m.cfg.SelectROCAUC {
		o.Metrics[MetricValROCAUC], o.Metrics[MetricTestROCAUC] = f.ValROCAUC, f.TestROCAUC
	}
	for k, r := range res.Rounds {
		if len(res.Rounds) > 1 {
			o.Metrics[fmt.Sprintf("round%d_test_acc", k)] = r.TestAcc
			o.Metrics[fmt.Sprintf("round%d_val_acc", k)] = r.ValAcc
			o.Metrics[fmt.Sprintf("round%d_pseudo_acc", k)] = r.PseudoAcc
		}
	}
	return o
}

// --- zoo models ---

type zooMethod struct {
	name     string
	hyper    zoo.Hyper
	env      Env
	trainers map[int]*train.Trainer // by runs per computation
}

func newZooMethod(name string, env Env) (Method, error) {
	e, _ := zoo.Lookup(name)
	h := e.Defaults(env.Dataset)
	// Model-specific settings (zoo.ExtraPrefix) go by the keys the entry's
	// defaults have; the others by zoo.SettingNames.
	over, extras := env.Override, map[string]float64{}
	over.Settings = maps.Clone(over.Settings)
	for k, v := range over.Settings {
		if strings.HasPrefix(k, zoo.ExtraPrefix) {
			extras[k] = v
			delete(over.Settings, k)
		}
	}
	set, err := over.settings(zoo.SettingNames)
	if err != nil {
		return nil, err
	}
	for _, s := range set {
		h, _ = e.Set(h, s.name, s.value)
	}
	for _, k := range slices.Sorted(maps.Keys(extras)) {
		var ok bool
		if h, ok = e.Set(h, k, extras[k]); !ok {
			return nil, settingErrorf("zoo: %s has no setting %s (its own: %s)", name, k, extraNames(h))
		}
	}
	if err := h.Validate(); err != nil {
		return nil, settingErrorf("zoo: %s: %w", name, err)
	}
	if _, _, err := e.Build(h); err != nil {
		return nil, settingErrorf("zoo: %s: %w", name, err)
	}
	if ROCAUCDataset(env.Dataset) {
		h = h.With(zoo.SelectKey, float64(train.ByValROCAUC))
	}
	m := &zooMethod{name: name, hyper: h, env: env, trainers: map[int]*train.Trainer{}}
	if _, err := m.trainer(1); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *zooMethod) Config() string { return m.name + m.hyper.Key() }

// Describe implements Method.
func (m *zooMethod) Describe() string {
	e, _ := zoo.Lookup(m.name)
	return e.Title + " " + m.hyper.Key()
}

func (m *zooMethod) Params() map[string]float64 {
	h := m.hyper
	p := map[string]float64{"hidden": float64(h.Hidden), "dropout": h.Dropout, "lr": h.LR,
		"weight_decay": h.WeightDecay, "epochs": float64(h.Epochs)}
	if h.Layers > 0 {
		p["layers"] = float64(h.Layers)
	}
	if h.Heads > 0 {
		p["heads"] = float64(h.Heads)
	}
	for k, v := range h.Extra {
		p[k] = v
	}
	return p
}

func (m *zooMethod) Run(ctx context.Context, split int, seed int64) (Outcome, error) {
	t, err := m.trainer(1)
	if err != nil {
		return Outcome{}, err
	}
	rr, err := t.RunOne(ctx, train.Run{Split: split, Seed: seed})
	if err != nil {
		return Outcome{}, err
	}
	defer rr.Finalize()
	return m.outcome(rr), nil
}

// outcome reads a run's result (alone or from a batch).
func (m *zooMethod) outcome(rr *train.RunResult) Outcome {
	o := Outcome{TestAcc: rr.TestAcc, ValAcc: rr.ValAcc, TrainAcc: rr.TrainAcc, BestEpoch: rr.BestEpoch,
		Epochs: rr.Epochs, MsPerEpoch: rr.MsPerEpoch, CompileSecs: rr.CompileSecs, Compiles: rr.Compiles}
	if m.hyper.Selection().By == train.ByValROCAUC {
		o.Metrics = map[string]float64{MetricValROCAUC: rr.ValROCAUC, MetricTestROCAUC: rr.TestROCAUC}
	}
	return o
}

// CheckpointEvery is the epochs between a run's checkpoints (Env.CheckpointDir).
const CheckpointEvery = 50

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
