package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// Checkpoint layout, per run under Config.CheckpointDir:
//
//	split<k>-seed<s>/last/     GoMLX checkpoint of every store variable (weights,
//	                           Adam state, RNG state) + params: epoch, done, best_*
//	split<k>-seed<s>/best/     weights and log-probabilities of the best epoch
//	split<k>-seed<s>/history.json
const (
	lastDir        = "last"
	bestDir        = "best"
	historyFile    = "history.json"
	bestLogProbVar = "/best_log_probs"
)

type runCheckpoint struct {
	dir       string
	bestDirty bool
}

type loadedState struct {
	epoch  int
	done   bool
	result *RunResult
}

// RunCheckpointDir is where a run's checkpoint lives.
func RunCheckpointDir(root string, r Run) string {
	return filepath.Join(root, fmt.Sprintf("split%d-seed%d", r.Split, r.Seed))
}

func (t *Trainer) checkpointer(r Run) *runCheckpoint {
	if t.cfg.CheckpointDir == "" {
		return nil
	}
	return &runCheckpoint{dir: RunCheckpointDir(t.cfg.CheckpointDir, r)}
}

func bestParams(rr *RunResult) map[string]any {
	p := map[string]any{"best_epoch": int64(rr.BestEpoch), "val_acc": rr.ValAcc, "test_acc": rr.TestAcc,
		"train_acc": rr.TrainAcc, "val_loss": rr.ValLoss}
	for k, v := range rr.Extra {
		p["extra_"+k] = v
	}
	return p
}

func (c *runCheckpoint) save(store *model.Store, rr *RunResult, epoch int, done bool) error {
	if c.bestDirty && rr.Weights != nil {
		s := model.NewStore()
		for path, w := range rr.Weights {
			if err := cloneInto(s, path, w); err != nil {
				return err
			}
		}
		if rr.LogProbs != nil {
			if err := cloneInto(s, bestLogProbVar, rr.LogProbs); err != nil {
				return err
			}
		}
		for k, v := range bestParams(rr) {
			s.SetParam(k, v)
		}
		if err := writeCheckpoint(filepath.Join(c.dir, bestDir), s); err != nil {
			return err
		}
		c.bestDirty = false
	}
	s := model.NewStore()
	for v := range store.IterVariables() {
		val, err := v.Value()
		if err != nil {
			return fmt.Errorf("train: checkpoint: reading %s: %w", v.Path(), err)
		}
		if err := cloneInto(s, v.Path(), val); err != nil {
			return err
		}
	}
	for k, v := range bestParams(rr) {
		s.SetParam(k, v)
	}
	s.SetParam("epoch", int64(epoch))
	s.SetParam("done", done)
	if err := writeCheckpoint(filepath.Join(c.dir, lastDir), s); err != nil {
		return err
	}
	data, err := json.Marshal(rr.History)
	if err != nil {
		return fmt.Errorf("train: checkpoint history: %w", err)
	}
	return results.WriteFileAtomic(filepath.Join(c.dir, historyFile), data)
}

func cloneInto(s *model.Store, path string, t *tensors.Tensor) error {
	c, err := t.LocalClone()
	if err != nil {
		return fmt.Errorf("train: checkpoint: copying %s: %w", path, err)
	}
	if _, err := s.CreateVariable(path, c); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return nil
}

// writeCheckpoint saves s into dir, replacing it: the checkpoint is written
// to dir.tmp and renamed, so dir always holds a complete checkpoint (or
// dir.old does, during the swap).
func writeCheckpoint(dir string, s *model.Store) error {
	tmp, old := dir+".tmp", dir+".old"
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	h, err := checkpoint.Build(s).Dir(tmp).Keep(1).Done()
	if err != nil {
		return fmt.Errorf("train: checkpoint %s: %w", tmp, err)
	}
	if err := h.Save(); err != nil {
		return fmt.Errorf("train: checkpoint %s: %w", tmp, err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("train: checkpoint: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return os.RemoveAll(old)
}

// readCheckpoint loads dir (or dir.old) into a new store; nil when absent.
func readCheckpoint(dir string) (*model.Store, error) {
	for _, d := range []string{dir, dir + ".old"} {
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		s := model.NewStore()
		if _, err := checkpoint.Load(s).Dir(d).Immediate().Done(); err != nil {
			return nil, fmt.Errorf("train: loading checkpoint %s: %w", d, err)
		}
		return s, nil
	}
	return nil, nil
}

func (c *runCheckpoint) load(store *model.Store) (*loadedState, error) {
	last, err := readCheckpoint(filepath.Join(c.dir, lastDir))
	if err != nil || last == nil {
		return nil, err
	}
	for v := range store.IterVariables() {
		saved := last.GetVariable(v.Path())
		if saved == nil {
			return nil, fmt.Errorf("train: checkpoint %s has no variable %s (different model?)", c.dir, v.Path())
		}
		val, err := saved.Value()
		if err != nil {
			return nil, err
		}
		if !val.Shape().Equal(v.Shape()) {
			return nil, fmt.Errorf("train: checkpoint %s: variable %s has shape %s, the model %s", c.dir, v.Path(),
				val.Shape(), v.Shape())
		}
		if err := v.SetValue(val); err != nil {
			return nil, err
		}
	}
	st := &loadedState{result: &RunResult{}}
	st.epoch = int(paramFloat(last, "epoch"))
	st.done, _ = paramAny(last, "done").(bool)
	readBest(last, st.result)
	best, err := readCheckpoint(filepath.Join(c.dir, bestDir))
	if err != nil {
		return nil, err
	}
	if best != nil {
		readBest(best, st.result)
		st.result.Weights = map[string]*tensors.Tensor{}
		for v := range best.IterVariables() {
			val, err := v.Value()
			if err != nil {
				return nil, err
			}
			if v.Path() == bestLogProbVar {
				st.result.LogProbs = val
			} else {
				st.result.Weights[v.Path()] = val
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(c.dir, historyFile)); err == nil {
		if err := json.Unmarshal(data, &st.result.History); err != nil {
			return nil, fmt.Errorf("train: %s: %w", filepath.Join(c.dir, historyFile), err)
		}
	}
	st.result.Epochs = st.epoch
	return st, nil
}

func readBest(s *model.Store, rr *RunResult) {
	rr.BestEpoch = int(paramFloat(s, "best_epoch"))
	rr.ValAcc, rr.TestAcc = paramFloat(s, "val_acc"), paramFloat(s, "test_acc")
	rr.TrainAcc, rr.ValLoss = paramFloat(s, "train_acc"), paramFloat(s, "val_loss")
	for k, v := range s.IterParams() {
		name := strings.TrimPrefix(k, "/")
		if strings.HasPrefix(name, "extra_") {
			if rr.Extra == nil {
				rr.Extra = map[string]float64{}
			}
			rr.Extra[strings.TrimPrefix(name, "extra_")] = toFloat(v)
		}
	}
}

func paramAny(s *model.Store, key string) any {
	v, _ := s.GetParam("/" + key)
	return v
}

func paramFloat(s *model.Store, key string) float64 { return toFloat(paramAny(s, key)) }

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	}
	return 0
}
