package train

import (
	"fmt"
	"slices"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// snapshot is a copy of the model weights (of every run of the batch),
// shared by the runs whose reported epoch it is; the last reference frees
// it.
type snapshot struct {
	vals map[string]*tensors.Tensor
	refs int
}

// snapshot copies the model weights (those match selects, if set).
func (t *Trainer) snapshot(match func(path string) bool) (*snapshot, error) {
	out := map[string]*tensors.Tensor{}
	for v := range t.store.IterVariables() {
		if !nn.IsParam(t.store, v) || (match != nil && !match(v.Path())) {
			continue
		}
		val, err := v.Value()
		if err != nil {
			finalizeWeights(out)
			return nil, fmt.Errorf("train: reading %s: %w", v.Path(), err)
		}
		c, err := val.Clone()
		if err != nil {
			finalizeWeights(out)
			return nil, fmt.Errorf("train: copying %s: %w", v.Path(), err)
		}
		out[v.Path()] = c
	}
	return &snapshot{vals: out, refs: 1}, nil
}

// ref adds a reference.
func (s *snapshot) ref() *snapshot {
	s.refs++
	return s
}

// unref drops a reference (nil: none), freeing the copy with the last.
func (s *snapshot) unref() {
	if s == nil {
		return
	}
	if s.refs--; s.refs <= 0 {
		finalizeWeights(s.vals)
		s.vals = nil
	}
}

// replace replaces the copies of the weights match selects with copies of
// their current values.
func (s *snapshot) replace(t *Trainer, match func(path string) bool) error {
	now, err := t.snapshot(match)
	if err != nil {
		return err
	}
	for path, c := range now.vals {
		if old := s.vals[path]; old != nil {
			_ = old.FinalizeAll()
		}
		s.vals[path] = c
	}
	return nil
}

// take returns run k's weights, as the run alone holds them: with one run
// the copy's own tensors, which the snapshot then no longer frees.
func (s *snapshot) take(store *model.Store, k int) (map[string]*tensors.Tensor, error) {
	if nn.NumRuns(store) == 1 {
		vals := s.vals
		s.vals = nil
		return vals, nil
	}
	out := map[string]*tensors.Tensor{}
	for path, val := range s.vals {
		w, err := nn.RunWeight(store, store.GetVariable(path), val, k)
		if err != nil {
			finalizeWeights(out)
			return nil, err
		}
		out[path] = w
	}
	return out, nil
}

func finalizeWeights(w map[string]*tensors.Tensor) {
	for _, t := range w {
		_ = t.FinalizeAll()
	}
}

// RunWeights returns run k's current weights (k < BatchSize, of the last
// batch trained) by variable path, as flat float32 values in the order of
// the weight a run alone holds.
func (t *Trainer) RunWeights(k int) (map[string][]float32, error) {
	if k < 0 || k >= max(t.runs, 1) {
		return nil, fmt.Errorf("train: run %d out of range: batch of %d", k, t.runs)
	}
	out := map[string][]float32{}
	for _, v := range t.paramVariables() {
		val, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("train: reading %s: %w", v.Path(), err)
		}
		w, err := nn.RunWeight(t.store, v, val, k)
		if err != nil {
			return nil, err
		}
		flat, err := tensors.CopyFlatData[float32](w)
		if err != nil {
			return nil, fmt.Errorf("train: reading %s: %w", v.Path(), err)
		}
		out[v.Path()] = flat
	}
	return out, nil
}

// paramVariables are the model weights (nn.Param variables), by path.
func (t *Trainer) paramVariables() []*model.Variable {
	var vs []*model.Variable
	for v := range t.store.IterVariables() {
		if nn.IsParam(t.store, v) {
			vs = append(vs, v)
		}
	}
	slices.SortFunc(vs, func(a, b *model.Variable) int {
		if a.Path() < b.Path() {
			return -1
		}
		if a.Path() > b.Path() {
			return 1
		}
		return 0
	})
	return vs
}
