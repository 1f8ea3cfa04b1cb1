package train

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Criterion is what picks a run's reported epoch among its epochs.
type Criterion int

// Criteria of Selection.By.
const (
	// ByValAcc picks the highest validation accuracy: the protocol's
	// (and LW-GCN's, LINKX's, SuperGAT's ...) model selection.
	ByValAcc Criterion = iota
	// ByValLoss picks the lowest validation loss, as GCNII's official code
	// (semi- and full-supervised) and FAGCN's on the Planetoid graphs do.
	ByValLoss
	// ByValROCAUC picks the highest validation ROC-AUC of a two-class task
	// (Platonov et al.'s protocol for minesweeper, tolokers and questions);
	// the run also reports the test ROC-AUC of that epoch.
	ByValROCAUC
)

// String names the criterion as recorded in result files.
func (c Criterion) String() string {
	switch c {
	case ByValAcc:
		return "val_acc"
	case ByValLoss:
		return "val_loss"
	case ByValROCAUC:
		return "val_roc_auc"
	}
	return fmt.Sprintf("Criterion(%d)", int(c))
}

// Selection says which epoch a run reports and when it stops. The zero value
// is the protocol's: the epoch of highest validation accuracy, the first one
// on ties, every epoch run.
type Selection struct {
	By Criterion
	// LaterOnTies makes an epoch that equals the best so far the reported
	// one (SuperGAT's official "val_perf >= best_val_perf"); otherwise the
	// first of equal epochs is kept.
	LaterOnTies bool
	// Patience > 0 ends a run once Patience epochs in a row brought no new
	// best (GCNII's bad_counter: the run stops at the epoch that makes the
	// count reach Patience; that epoch is still a candidate).
	Patience int
	// PatienceOnBoth counts, for Patience, the epochs that did not lower the
	// best validation loss and raise the best validation accuracy together
	// (FAGCN's official early stop, "loss_val < min_loss and max_acc <
	// val_acc"), whatever the criterion.
	PatienceOnBoth bool
}

// IsDefault reports whether s is the protocol's selection (the zero value).
func (s Selection) IsDefault() bool { return s == Selection{} }

// Validate checks the criterion and the patience.
func (s Selection) Validate() error {
	if s.By < ByValAcc || s.By > ByValROCAUC {
		return fmt.Errorf("train: unknown selection criterion %d", int(s.By))
	}
	if s.Patience < 0 {
		return fmt.Errorf("train: patience must be >= 0 (0: no early stop), got %d", s.Patience)
	}
	if s.PatienceOnBoth && s.Patience == 0 {
		return errors.New("train: PatienceOnBoth needs a patience > 0")
	}
	return nil
}

// Selector follows one run's epochs under a Selection.
type Selector struct {
	s Selection
	// best is the reported epoch's criterion value, oriented so that larger
	// is better (a loss is negated); NaN before the first epoch.
	best float64
	// minLoss and maxAcc are FAGCN's jointly updated bests.
	minLoss, maxAcc float64
	since           int // epochs since the patience counter was reset
}

// NewSelector starts a run's selection.
func (s Selection) NewSelector() *Selector {
	return &Selector{s: s, best: math.NaN(), minLoss: 100, maxAcc: 0}
}

// value is es's criterion value, larger is better.
func (x *Selector) value(es EpochStats) float64 {
	switch x.s.By {
	case ByValLoss:
		return -es.ValLoss
	case ByValROCAUC:
		return es.ValROCAUC
	}
	return es.ValAcc
}

// Observe books an epoch: selected says it becomes the run's reported epoch,
// stop that the run ends after it.
func (x *Selector) Observe(es EpochStats) (selected, stop bool) {
	v := x.value(es)
	switch {
	case math.IsNaN(x.best):
		selected = true
	case x.s.LaterOnTies:
		selected = v >= x.best
	default:
		selected = v > x.best
	}
	if selected {
		x.best = v
	}
	if x.s.Patience == 0 {
		return selected, false
	}
	improved := selected
	if x.s.PatienceOnBoth {
		// FAGCN starts from min_loss = 100 and max_acc = 0.
		improved = es.ValLoss < x.minLoss && x.maxAcc < es.ValAcc
		if improved {
			x.minLoss, x.maxAcc = es.ValLoss, es.ValAcc
		}
	}
	if improved {
		x.since = 0
	} else {
		x.since++
	}
	return selected, x.since >= x.s.Patience
}

// ROCAUC is the area under the ROC curve of scores for the positive nodes
// (positive[i]) against the negative ones: the probability that a random
// positive scores above a random negative, ties counting one half (the
// Mann-Whitney statistic, as scikit-learn's roc_auc_score). NaN when either
// class is absent.
func ROCAUC(scores []float64, positive []bool) float64 {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	// Sum of the positives' ranks (1-based, ties get their mean rank).
	var rankSum float64
	var pos, neg int
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		mean := float64(i+1+j) / 2 // mean of ranks i+1 .. j
		for _, k := range idx[i:j] {
			if positive[k] {
				rankSum += mean
				pos++
			} else {
				neg++
			}
		}
		i = j
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return (rankSum - float64(pos)*float64(pos+1)/2) / (float64(pos) * float64(neg))
}

// splitROCAUC reads run k's block of an epoch's log-probabilities (flat
// [N, R·2] of runs runs) and returns the validation and test ROC-AUC of
// class 1 (score log p1 - log p0, monotone in p1).
func splitROCAUC(flat []float32, runs, k int, labels []int32, split graph.Split) (val, test float64, err error) {
	if len(flat) != 2*runs*len(labels) {
		return 0, 0, fmt.Errorf("ROC-AUC needs [N, 2] log-probabilities per run, got %d values for %d nodes and %d runs",
			len(flat), len(labels), runs)
	}
	auc := func(nodes []int32) float64 {
		scores := make([]float64, len(nodes))
		pos := make([]bool, len(nodes))
		for i, v := range nodes {
			at := (int(v)*runs + k) * 2
			scores[i] = float64(flat[at+1]) - float64(flat[at])
			pos[i] = labels[v] == 1
		}
		return ROCAUC(scores, pos)
	}
	return auc(split.Val), auc(split.Test), nil
}
