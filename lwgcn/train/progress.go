package train

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress receives training progress. Calls come from the training
// goroutine, in order: Begin, then for each batch of runs (one run with a
// batch size of 1) StartRun of each run, EndEpoch per run and epoch (the
// batch's runs in turn), EndRun of each run, and finally End.
type Progress interface {
	// Begin announces runs (splits x seeds) of epochs each.
	Begin(runs, epochs int)
	// StartRun announces run index (0-based) on split with seed.
	StartRun(index, split int, seed int64)
	// EndEpoch reports an epoch's statistics.
	EndEpoch(s EpochStats)
	// EndRun reports a finished run.
	EndRun(r *RunResult)
	// End is called once after the last run (also on error).
	End()
}

// Silent discards progress.
type Silent struct{}

func (Silent) Begin(int, int)           {}
func (Silent) StartRun(int, int, int64) {}
func (Silent) EndEpoch(EpochStats)      {}
func (Silent) EndRun(*RunResult)        {}
func (Silent) End()                     {}

// Terminal shows a progress bar over all epochs of all runs on w (usually
// os.Stderr), with the current run, epoch and validation accuracy, and
// prints one line per finished run.
type Terminal struct {
	W    io.Writer
	bar  *progressbar.ProgressBar
	runs int
	run  int
	desc string
}

// NewTerminal returns a Terminal writing to w.
func NewTerminal(w io.Writer) *Terminal { return &Terminal{W: w} }

// Begin implements Progress.
func (t *Terminal) Begin(runs, epochs int) {
	t.runs = runs
	t.bar = progressbar.NewOptions(runs*epochs,
		progressbar.OptionSetWriter(t.W),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetDescription("training"),
	)
}

// StartRun implements Progress.
func (t *Terminal) StartRun(index, split int, seed int64) {
	t.run = index
	t.desc = fmt.Sprintf("run %d/%d (split %d, seed %d)", index+1, t.runs, split, seed)
	if t.bar != nil {
		t.bar.Describe(t.desc)
	}
}

// EndEpoch implements Progress.
func (t *Terminal) EndEpoch(s EpochStats) {
	if t.bar == nil {
		return
	}
	t.bar.Describe(fmt.Sprintf("%s epoch %d loss %.3f val %.3f", t.desc, s.Epoch, s.TrainLoss, s.ValAcc))
	_ = t.bar.Add(1)
}

// EndRun implements Progress.
func (t *Terminal) EndRun(r *RunResult) {
	if t.bar != nil {
		_ = t.bar.Clear()
	}
	fmt.Fprintf(t.W, "  %s\n", r)
	if t.bar != nil {
		// Skip the epochs a run did not use (early stop, resume).
		_ = t.bar.Set((t.run + 1) * (t.bar.GetMax() / max(t.runs, 1)))
	}
}

// End implements Progress.
func (t *Terminal) End() {
	if t.bar != nil {
		_ = t.bar.Finish()
		_ = t.bar.Clear()
	}
}
