package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
//	split<k>-seed<s>/identity.json what the checkpoint was made for (see
//	                           Trainer.checkpointIdentity); a checkpoint for
//	                           anything else is refused, never resumed
const (
	lastDir        = "last"
	bestDir        = "best"
	historyFile    = "history.json"
	identityFile   = "identity.json"
	bestLogProbVar = "/best_log_probs"
)

type runCheckpoint struct {
	dir       string
	bestDirty bool
	// identity is what the run's checkpoint is made for (field -> value).
	identity map[string]string
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
	return &runCheckpoint{dir: RunCheckpointDir(t.cfg.CheckpointDir, r), identity: t.checkpointIdentity()}
}

// identityOrder lists the trainer's own identity fields in the order a
// mismatch names them; the caller's CheckpointSettings follow, sorted.
var identityOrder = []string{"dataset", "graph", "model", "epochs", "optimizer", "backend"}

// checkpointIdentity is what a checkpoint of this trainer is made for:
// the dataset's name and content (graph.Fingerprint, edges included), the
// model, epochs, each optimizer group's settings, the backend, and the
// caller's CheckpointSettings (which win on a shared name).
func (t *Trainer) checkpointIdentity() map[string]string {
	if t.identity == nil {
		id := map[string]string{"dataset": t.graph.Name(), "graph": t.graph.Fingerprint(true)[:16], "model": t.model.Name(),
			"epochs": fmt.Sprint(t.cfg.Epochs), "backend": t.cfg.Backend.Name}
		var groups []string
		for _, g := range t.opt.Groups {
			groups = append(groups, fmt.Sprintf("%s lr=%v wd=%v", g.Name, g.Adam.LR, g.Adam.WeightDecay))
		}
		id["optimizer"] = strings.Join(groups, ", ")
		maps.Copy(id, t.cfg.CheckpointSettings)
		t.identity = id
	}
	return t.identity
}

// checkIdentity refuses a checkpoint made for other data or settings
// than c's, naming (up to four of) the fields that differ.
func (c *runCheckpoint) checkIdentity() error {
	data, err := os.ReadFile(filepath.Join(c.dir, identityFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("train: checkpoint %s does not record the data and settings it was made for (made by an older "+
			"lwgcn?): use another checkpoint directory, or delete it to start over", c.dir)
	}
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	var saved map[string]string
	if err := json.Unmarshal(data, &saved); err != nil {
		return fmt.Errorf("train: checkpoint %s: %w", filepath.Join(c.dir, identityFile), err)
	}
	var names []string
	for _, k := range identityOrder {
		if _, ok := c.identity[k]; ok {
			names = append(names, k)
		}
	}
	var extra []string
	for k := range c.identity {
		if !slices.Contains(identityOrder, k) {
			extra = append(extra, k)
		}
	}
	for k := range saved {
		if _, ok := c.identity[k]; !ok {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	names = append(names, slices.Compact(extra)...)
	var diffs []string
	for _, k := range names {
		if saved[k] != c.identity[k] {
			diffs = append(diffs, fmt.Sprintf("%s %s, not %s", k, orNone(saved[k]), orNone(c.identity[k])))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	if len(diffs) > 4 {
		diffs = append(diffs[:4], fmt.Sprintf("%d more", len(diffs)-4))
	}
	return fmt.Errorf("train: checkpoint %s was made for other data or settings (%s): use another checkpoint directory, "+
		"or delete it to start over", c.dir, strings.Join(diffs, "; "))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// writeIdentity records what the checkpoint is made for (before its
// first state, so that no state exists without it).
func (c *runCheckpoint) writeIdentity() error {
	data, err := json.MarshalIndent(c.identity, "", "  ")
	if err != nil {
		return fmt.Errorf("train: checkpoint identity: %w", err)
	}
	if err := results.WriteFileAtomic(filepath.Join(c.dir, identityFile), append(data, '\n')); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return nil
}

func bestParams(rr *RunResult) map[string]any {
	p := map[string]any{"best_epoch": int64(rr.BestEpoch), "val_acc": rr.ValAcc, "test_acc": rr.TestAcc,
		"train_acc": rr.TrainAcc, "val_loss": rr.ValLoss}
	for k, v := range rr.Extra {
		p["extra_"+k] = v
	}
	return p
}

// save writes the run's state after epoch: the store's variables, its
// history and, when they changed, the best epoch's outputs and weights
// (best).
func (c *runCheckpoint) save(store *model.Store, rr *RunResult, best map[string]*tensors.Tensor, epoch int, done bool) error {
	if err := c.writeIdentity(); err != nil {
		return err
	}
	if c.bestDirty && best != nil {
		s := model.NewStore()
		for path, w := range best {
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
	if err := c.checkIdentity(); err != nil {
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
