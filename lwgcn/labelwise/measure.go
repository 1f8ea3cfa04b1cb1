package labelwise

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/train"
)

// EpochTiming is the measured cost of one full LW-GCN epoch: f_C and f_G
// forward, backward and update, the evaluation forward of both and the
// selection step (one compiled call).
type EpochTiming struct {
	Epochs     int
	MsPerEpoch float64
	// CPUMsPerEpoch is the process CPU time (all threads) per epoch.
	CPUMsPerEpoch float64
	// PeakRSSBytes is the process's peak resident memory (Linux VmHWM), 0
	// where unavailable.
	PeakRSSBytes uint64
	// CompileSecs is the time the main model's epoch graph took to build
	// and compile (not part of MsPerEpoch), LongestCompileSecs the longest
	// of its graphs alone.
	CompileSecs, LongestCompileSecs float64
	// Compiles is the number of graphs the main model compiled (its
	// epoch's executables; train.Trainer.Compiles) and EpochOps the op
	// count of its epoch graph (train.Trainer.EpochOps), EpochHLOBytes
	// the size of its StableHLO program on XLA (0 on pure Go).
	Compiles, EpochOps, EpochHLOBytes int
}

// PrepareEpochs trains f_P on runs (one batch; none: split 0 with
// DefaultSeed) and prepares the main model's batch: each Epoch call of the
// result is one full LW-GCN epoch of every run (for benchmarks).
func (r *Runner) PrepareEpochs(ctx context.Context, runs ...train.Run) (*train.EpochRunner, error) {
	if len(runs) == 0 {
		runs = []train.Run{{Split: 0, Seed: DefaultSeed}}
	}
	res := make([]*SplitResult, len(runs))
	for k := range res {
		res[k] = &SplitResult{}
	}
	if err := r.pseudoLabels(ctx, runs, res); err != nil {
		return nil, err
	}
	return r.main.PrepareRuns(runs...)
}

// MeasureEpoch times full epochs (PrepareEpochs) for at least minTime and
// three epochs, after one warm-up epoch.
func (r *Runner) MeasureEpoch(ctx context.Context, minTime time.Duration) (EpochTiming, error) {
	er, err := r.PrepareEpochs(ctx)
	if err != nil {
		return EpochTiming{}, err
	}
	if _, err := er.Epoch(); err != nil { // warm-up
		return EpochTiming{}, err
	}
	resetPeakRSS()
	runtime.GC()
	cpu0 := cpuTime()
	start := time.Now()
	n := 0
	for n < 3 || time.Since(start) < minTime {
		if err := ctx.Err(); err != nil {
			return EpochTiming{}, err
		}
		if _, err := er.Epoch(); err != nil {
			return EpochTiming{}, fmt.Errorf("lwgcn: timing epoch %d: %w", n+1, err)
		}
		n++
	}
	wall := time.Since(start)
	return EpochTiming{Epochs: n, MsPerEpoch: float64(wall.Microseconds()) / 1000 / float64(n),
		CPUMsPerEpoch: float64((cpuTime() - cpu0).Microseconds()) / 1000 / float64(n), PeakRSSBytes: peakRSS(),
		CompileSecs: r.main.CompileTime().Seconds(), LongestCompileSecs: r.main.LongestCompile().Seconds(),
		Compiles: r.main.Compiles(), EpochOps: r.main.EpochOps(),
		EpochHLOBytes: r.main.EpochHLOBytes()}, nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS resets Linux's VmHWM (writing 5 to clear_refs).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func peakRSS() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseUint(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}
