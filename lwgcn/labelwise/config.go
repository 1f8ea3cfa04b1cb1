package labelwise

import (
	"fmt"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Variant is the architecture of f_C.
type Variant int

const (
	// Dense applies label-wise layers to the raw features (the authors'
	// DIS_lp, used for Chameleon, Squirrel and Crocodile):
	// LW(X)->Linear->ReLU, (Layers-2) x [LW->Linear->ReLU], LW->Linear to classes.
	Dense Variant = iota
	// Small projects first and concatenates every layer (the authors'
	// DIS_texas, used for WebKB and Planetoid graphs): Linear(F->H), Layers x
	// [LW->Linear->ReLU], jumping-knowledge concatenation, then
	// Linear->ReLU->Dropout->Linear to classes.
	Small
)

func (v Variant) String() string {
	switch v {
	case Dense:
		return "dense"
	case Small:
		return "small"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// ParseVariant reads "dense" or "small".
func ParseVariant(s string) (Variant, error) {
	switch strings.ToLower(s) {
	case "dense":
		return Dense, nil
	case "small":
		return Small, nil
	}
	return 0, fmt.Errorf("lwgcn: unknown f_C variant %q (want dense or small)", s)
}

// Direction says which neighbours a node aggregates (see the package doc).
type Direction int

const (
	// DirectionOfficial aggregates over the second entry of each edge row,
	// as the authors' code does (the graph is reversed for the models).
	DirectionOfficial Direction = iota
	// DirectionInNeighbours aggregates over in-neighbours, PyG's flow.
	DirectionInNeighbours
)

func (d Direction) String() string {
	if d == DirectionInNeighbours {
		return "in-neighbours"
	}
	return "official"
}

// Names of the pseudo-labellers and homophilic backbones.
const (
	PseudoMLP = "mlp"
	PseudoGCN = "gcn"

	BackboneGCNII = "gcnii"
	BackboneGCN   = "gcn"
	BackboneNone  = "none"
)

// Defaults of the paper and its code.
const (
	DefaultPseudoHidden = 64   // f_P hidden units ("fixed as 64 for all graphs")
	DefaultPseudoLR     = 0.01 // f_P Adam learning rate
	DefaultPseudoWD     = 5e-4 // f_P weight decay (0 on arxiv-year)
	DefaultPhiLR        = 0.1  // Adam learning rate of the selection weights phi
	DefaultInnerSteps   = 1    // T, inner steps per epoch
	DefaultEpochs       = 400
	DefaultAlpha        = 0.1 // GCNII alpha
	DefaultLambda       = 0.5 // GCNII lambda
	DefaultSeed         = 15  // the official code's default seed
)

// Config is one LW-GCN configuration. Build it with Defaults(dataset) and
// adjust fields; Validate reports inconsistencies.
type Config struct {
	// Pseudo-labeller f_P: PseudoMLP (default) or PseudoGCN (LW-GCN\P).
	Pseudo             string
	PseudoHidden       int
	PseudoLR, PseudoWD float64
	PseudoEpochs       int // 0: Epochs
	PseudoDropout      float64

	// f_C.
	Variant Variant `setting:"variant"`
	Layers  int     `setting:"layers"`
	Hidden  int     `setting:"hidden"`
	Dropout float64 `setting:"dropout"`

	// f_G: BackboneGCNII (default), BackboneGCN (LW-GCN_GCN) or BackboneNone
	// (LW-GCN\G: f_C alone, no selection).
	Backbone    string
	GCNIILayers int     `setting:"gcnii-layers"`
	Alpha       float64 `setting:"alpha"`
	Lambda      float64 `setting:"lambda"`

	// Training.
	LR          float64 `setting:"lr"`
	WeightDecay float64 `setting:"wd"`
	Epochs      int     `setting:"epochs"`
	InnerSteps  int
	PhiLR       float64

	// Direction of aggregation (DirectionOfficial by default).
	Direction Direction

	// RefineRounds > 0 retrains with LW-GCN's own predictions as pseudo
	// labels that many times (beyond the paper).
	RefineRounds int `setting:"refine"`

	// SelectROCAUC reports the main model's epoch of highest validation
	// ROC-AUC instead of accuracy (two-class graphs; Platonov et al.'s
	// protocol), with its test ROC-AUC. Omitted from the JSON when false, so
	// the configurations recorded before it keep their keys.
	SelectROCAUC bool `json:",omitempty"`
}

// Name is a short name for the configuration: "lwgcn", "lwgcn-g" (LW-GCN\G),
// "lwgcn-p" (LW-GCN\P), "lwgcn-gcn" (LW-GCN_GCN), with "+refineK" appended.
func (c Config) Name() string {
	name := "lwgcn"
	switch {
	case c.Backbone == BackboneNone:
		name = "lwgcn-g"
	case c.Pseudo == PseudoGCN:
		name = "lwgcn-p"
	case c.Backbone == BackboneGCN:
		name = "lwgcn-gcn"
	}
	if c.RefineRounds > 0 {
		name += fmt.Sprintf("+refine%d", c.RefineRounds)
	}
	return name
}

// Validate checks the configuration.
func (c Config) Validate() error {
	switch {
	case c.Pseudo != PseudoMLP && c.Pseudo != PseudoGCN:
		return fmt.Errorf("lwgcn: pseudo-labeller %q (want %q or %q)", c.Pseudo, PseudoMLP, PseudoGCN)
	case c.Backbone != BackboneGCNII && c.Backbone != BackboneGCN && c.Backbone != BackboneNone:
		return fmt.Errorf("lwgcn: backbone %q (want %q, %q or %q)", c.Backbone, BackboneGCNII, BackboneGCN, BackboneNone)
	case c.Layers < 1 || (c.Variant == Dense && c.Layers < 2):
		return fmt.Errorf("lwgcn: %d label-wise layers (the dense variant needs at least 2, the small one 1)", c.Layers)
	case c.Hidden < 1 || c.PseudoHidden < 1:
		return fmt.Errorf("lwgcn: hidden sizes must be positive (f_C %d, f_P %d)", c.Hidden, c.PseudoHidden)
	case c.Dropout < 0 || c.Dropout >= 1 || c.PseudoDropout < 0 || c.PseudoDropout >= 1:
		return fmt.Errorf("lwgcn: dropout must be in [0, 1) (f_C %v, f_P %v)", c.Dropout, c.PseudoDropout)
	case c.Backbone == BackboneGCNII && c.GCNIILayers < 1:
		return fmt.Errorf("lwgcn: GCNII needs at least one layer, got %d", c.GCNIILayers)
	case !(c.LR > 0) || !(c.PseudoLR > 0) || !(c.PhiLR > 0):
		return fmt.Errorf("lwgcn: learning rates must be positive (theta %v, f_P %v, phi %v)", c.LR, c.PseudoLR, c.PhiLR)
	case c.WeightDecay < 0 || c.PseudoWD < 0:
		return fmt.Errorf("lwgcn: weight decays must be >= 0 (theta %v, f_P %v)", c.WeightDecay, c.PseudoWD)
	case c.Epochs < 1 || c.PseudoEpochs < 0:
		return fmt.Errorf("lwgcn: epochs must be positive (got %d, f_P %d)", c.Epochs, c.PseudoEpochs)
	case c.InnerSteps < 1:
		return fmt.Errorf("lwgcn: inner steps T must be >= 1, got %d", c.InnerSteps)
	case c.RefineRounds < 0:
		return fmt.Errorf("lwgcn: refinement rounds must be >= 0, got %d", c.RefineRounds)
	}
	return nil
}

// base is the configuration every dataset starts from.
func base() Config {
	return Config{
		Pseudo: PseudoMLP, PseudoHidden: DefaultPseudoHidden, PseudoLR: DefaultPseudoLR, PseudoWD: DefaultPseudoWD,
		Variant: Small, Layers: 2, Hidden: 64, Dropout: 0.5,
		Backbone: BackboneGCNII, GCNIILayers: 2, Alpha: DefaultAlpha, Lambda: DefaultLambda,
		LR: 0.01, WeightDecay: 5e-4, Epochs: DefaultEpochs, InnerSteps: DefaultInnerSteps, PhiLR: DefaultPhiLR,
	}
}

// Defaults returns the reference hyperparameters of a dataset (the table of
// ../shared/paper/REFERENCE-SETTINGS.md); unknown datasets get the small
// variant with 2 layers of 64, dropout 0.5, lr 0.01, weight decay 5e-4.
func Defaults(dataset string) Config {
	c := base()
	small := func(layers, hidden int, dropout, lr, wd float64) {
		c.Variant, c.Layers, c.Hidden, c.Dropout, c.LR, c.WeightDecay = Small, layers, hidden, dropout, lr, wd
	}
	dense := func(layers, hidden int, lr, wd float64) {
		c.Variant, c.Layers, c.Hidden, c.Dropout, c.LR, c.WeightDecay = Dense, layers, hidden, 0, lr, wd
	}
	switch strings.ToLower(dataset) {
	case "texas", "wisconsin":
		small(2, 128, 0.6, 0.01, 0.005)
	case "cornell":
		small(4, 32, 0.65, 0.01, 0.005)
		c.GCNIILayers = 4
	case "chameleon", "chameleon_filtered":
		dense(2, 64, 0.003, 0.0005)
	case "squirrel", "squirrel_filtered":
		dense(2, 256, 0.003, 0.0005)
	case "crocodile":
		dense(3, 256, 0.003, 0.0005)
	case "arxiv-year":
		small(4, 256, 0.5, 0.01, 0)
		c.Backbone, c.Epochs, c.PseudoWD = BackboneNone, 800, 0
	case "cora":
		small(2, 64, 0.6, 0.01, 1e-4)
		c.GCNIILayers = 64
	case "citeseer":
		small(2, 256, 0.7, 0.01, 5e-4)
		c.GCNIILayers, c.Lambda = 32, 0.6
	case "pubmed":
		small(2, 256, 0.5, 0.01, 5e-4)
		c.GCNIILayers, c.Lambda = 16, 0.4
	}
	return c
}

// SettingNames are the settings Set knows (the flags of `lwgcn train`).
var SettingNames = train.SettingNames(Config{})

// Set sets one setting by name (SettingNames, the fields' setting tags: f_C's
// hidden units, layers and dropout, f_G's GCNII layers, alpha and lambda,
// the learning rate and weight decay of theta, the epochs, the f_C
// Variant, the refinement rounds) to v; ok is false for a name the
// configuration does not have. Validate checks the values.
func (c *Config) Set(name string, v float64) (ok bool) { return train.SetSetting(c, name, v) }

// WithoutSelection returns LW-GCN\G: f_C alone.
func (c Config) WithoutSelection() Config { c.Backbone = BackboneNone; return c }

// WithGCNPseudoLabels returns LW-GCN\P: a GCN as pseudo-labeller.
func (c Config) WithGCNPseudoLabels() Config { c.Pseudo = PseudoGCN; return c }

// WithGCNBackbone returns LW-GCN_GCN: GCN as f_G.
func (c Config) WithGCNBackbone() Config { c.Backbone = BackboneGCN; return c }
