package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// workerFlags are -procs and -worker, shared by reproduce and sweep.
type workerFlags struct {
	procs  *int
	worker *string
}

// addWorkerFlags adds -procs and -worker; unit names what a worker's share
// is taken from ("dataset", "point").
func addWorkerFlags(fs *flag.FlagSet, unit string) workerFlags {
	return workerFlags{
		procs: fs.Int("procs", 1, "run as N processes at once, each at GOMAXPROCS=CPUs/N with every N-th run of each "+unit+
			" (-worker), merged into -results when they end; on two cores, -procs 2 finishes more runs per hour than one "+
			"two-thread process"),
		worker: fs.String("worker", "", "run only this process's share of the runs, `i/N`: of each "+unit+"'s runs, those at "+
			"positions i, i+N, ... (N processes with i = 0..N-1, each with its own -results file; -procs starts them itself)"),
	}
}

// parse checks the flags and returns this process's worker share (0, 0:
// all runs).
func (w workerFlags) parse() (worker, workers int, err error) {
	if *w.procs < 1 {
		return 0, 0, usageErrorf("-procs %d: must be >= 1", *w.procs)
	}
	if *w.procs > runtime.NumCPU() {
		return 0, 0, usageErrorf("-procs %d: more worker processes than the %d CPUs (each runs at GOMAXPROCS=CPUs/N, at least 1)",
			*w.procs, runtime.NumCPU())
	}
	if *w.worker == "" {
		return 0, 0, nil
	}
	if *w.procs > 1 {
		return 0, 0, usageErrorf("-worker and -procs: -procs starts its workers itself")
	}
	return parseWorker(*w.worker)
}

// parseWorker reads -worker "i/N" (0 <= i < N, N >= 2).
func parseWorker(s string) (worker, workers int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 2 || i < 0 || i >= n {
		return 0, 0, usageErrorf("-worker %q: want i/N with N >= 2 and 0 <= i < N, e.g. 0/2", s)
	}
	return i, n, nil
}

// workerPath is worker i's results file beside target. The name is fixed,
// so that a later invocation finds what an interrupted one left.
func workerPath(target string, i, n int) string {
	return fmt.Sprintf("%s.worker%dof%d.json", strings.TrimSuffix(target, ".json"), i, n)
}

// runWorkers runs `lwgcn <lead...>` (reproduce TABLE, or sweep) as n
// processes at once, each with
// GOMAXPROCS = NumCPU/n (at least 1) and its share of every dataset's runs
// (-worker i/n), and merges their results into target. Each worker starts
// from a copy of target, so it skips what is recorded; what the workers
// record is merged in when they end, also after a failure or Ctrl-C, and
// worker files that an interrupted invocation left are merged first.
// fs holds the command line as parsed; every flag set on it except -procs,
// -results, -quiet and -worker goes to the workers.
func runWorkers(fs *flag.FlagSet, lead []string, n int, target string) error {
	name := strings.Join(lead, " ")
	if err := mergeWorkerFiles(target, n, false); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("%s -procs: %w", lead[0], err)
	}
	var common []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "procs", "results", "quiet", "worker":
			return
		}
		common = append(common, "-"+f.Name+"="+f.Value.String())
	})
	threads := max(1, runtime.NumCPU()/n)
	fmt.Fprintf(os.Stderr, "%s: %d worker processes at GOMAXPROCS=%d, each with every %d-th run of each dataset or point; "+
		"merged into %s at the end\n", name, n, threads, n, target)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		path := workerPath(target, i, n)
		if err := copyFile(target, path); err != nil {
			return fmt.Errorf("%s -procs: %w", lead[0], err)
		}
		args := append(slices.Clone(lead), common...)
		args = append(args, "-worker", fmt.Sprintf("%d/%d", i, n), "-results", path, "-quiet")
		cmd := exec.CommandContext(ctx, self, args...)
		// Ctrl-C reaches the workers from the terminal; a signal to this
		// process alone is passed on, and each worker ends its session.
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(threads))
		prefix := fmt.Sprintf("[worker %d/%d] ", i, n)
		stdout, err1 := cmd.StdoutPipe()
		stderr, err2 := cmd.StderrPipe()
		if err := errors.Join(err1, err2, cmd.Start()); err != nil {
			return fmt.Errorf("%s -procs: starting worker %d: %w", lead[0], i, err)
		}
		var pipes sync.WaitGroup
		pipes.Add(2)
		go func() { defer pipes.Done(); prefixLines(os.Stdout, stdout, prefix) }()
		go func() { defer pipes.Done(); prefixLines(os.Stderr, stderr, prefix) }()
		wg.Add(1)
		go func() {
			defer wg.Done()
			pipes.Wait()
			if err := cmd.Wait(); err != nil {
				errs[i] = fmt.Errorf("worker %d/%d: %w", i, n, err)
			}
		}()
	}
	wg.Wait()
	mergeErr := mergeWorkerFiles(target, n, true)
	return errors.Join(errors.Join(errs...), mergeErr)
}

// mergeWorkerFiles merges the worker files of n workers that exist into
// target and removes each once merged; verbose prints what each added.
func mergeWorkerFiles(target string, n int, verbose bool) error {
	for i := range n {
		path := workerPath(target, i, n)
		if _, err := os.Stat(path); errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		src, err := results.Open(path)
		if err != nil {
			return fmt.Errorf("-procs: %w", err)
		}
		dst, err := results.Open(target)
		if err != nil {
			return fmt.Errorf("-procs: %w", err)
		}
		added, _, err := dst.Merge(src)
		if err != nil {
			return fmt.Errorf("-procs: merging %s: %w (it is kept)", path, err)
		}
		if verbose || added > 0 {
			fmt.Fprintf(os.Stderr, "merged %s into %s: %d runs added (now %d runs)\n", path, target, added, len(dst.Runs()))
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("-procs: %w", err)
		}
	}
	return nil
}

// copyFile copies src to dst through a temporary file and a rename (an
// absent src removes dst: the worker starts from nothing).
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if errors.Is(err, iofs.ErrNotExist) {
		if err := os.Remove(dst); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return err
		}
		return nil
	}
	if err != nil {
		return err
	}
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// prefixLines copies r to w line by line, each line prefixed.
func prefixLines(w io.Writer, r io.Reader, prefix string) {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		fmt.Fprintln(w, prefix+s.Text())
	}
}
