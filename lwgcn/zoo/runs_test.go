package zoo

import (
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/internal/runstest"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Every entry's model, trained with its own epoch (auxiliary losses,
// phases, AdamW, SGD, parameter groups, ...) and its reference settings
// for 3 runs in one computation, gives each run what it gives alone: the
// same model code for any number of runs (nn.Runs), the ten baselines
// included.
func TestEveryEntryRunsEqualAlone(t *testing.T) {
	g := runstest.Graph(t, 60, 3, true, 11)
	b, info := backend.MustShared()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			e, _ := Lookup(name)
			h := e.WithEpochs(e.Defaults("unknown"), 8)
			res := runstest.Check(t, name, func(batch int) (*train.Trainer, error) {
				return NewTrainer(b, info, g, name, h, nil, func(c *train.Config) { c.BatchSize = batch })
			}, runstest.DifferentRuns, 3)
			if name != "asgc" { // ASGC starts from zeros and draws nothing: its runs depend on the split only
				runstest.Differ(t, res)
			}
		})
	}
}
