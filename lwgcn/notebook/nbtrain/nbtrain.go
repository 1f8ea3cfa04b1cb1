// Package nbtrain shows training progress in a notebook: Bar is a
// train.Progress that advances one notebook progress bar (lwgcn/notebook)
// by one step per epoch across any number of runs. It lives apart from
// lwgcn/notebook so that notebooks without training do not link GoMLX.
package nbtrain

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Bar is a train.Progress over total epochs (summed over the runs it will
// see); call Done when the last run has finished.
type Bar struct {
	bar  *notebook.Bar
	done int
}

// New starts a bar of total epochs labelled label.
func New(total int, label string) *Bar { return &Bar{bar: notebook.Progress(total, label)} }

// Wrap makes b, a notebook bar started elsewhere (e.g. an explorer task's,
// notebook.Task.Progress), a train.Progress over its total epochs.
func Wrap(b *notebook.Bar) *Bar { return &Bar{bar: b} }

// Begin implements train.Progress.
func (p *Bar) Begin(runs, epochs int) {}

// StartRun implements train.Progress.
func (p *Bar) StartRun(index, split int, seed int64) {}

// EndEpoch implements train.Progress: one step, with the split, epoch and
// validation accuracy as the message.
func (p *Bar) EndEpoch(s train.EpochStats) {
	p.done++
	p.bar.Update(p.done, fmt.Sprintf("split %d, epoch %d, val acc %.1f%%", s.Split, s.Epoch, 100*s.ValAcc))
}

// EndRun implements train.Progress.
func (p *Bar) EndRun(r *train.RunResult) {}

// End implements train.Progress.
func (p *Bar) End() {}

// Message shows s on the bar without advancing it (e.g. a sweep's log line).
func (p *Bar) Message(s string) { p.bar.Update(p.done, s) }

// Done finishes the bar.
func (p *Bar) Done() { p.bar.Done() }

var _ train.Progress = (*Bar)(nil)
