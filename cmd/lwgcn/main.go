// Command lwgcn is the command-line front end of the lwgcn toolkit: dataset
// statistics, training, the paper's reproduction tables, sweeps and benchmarks.
// Run `lwgcn help` for the list of commands.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/limits"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// command is one subcommand; each lives in its own file and registers itself
// in an init function.
type command struct {
	name    string
	summary string
	// run parses args (after the command name) and runs; command-line
	// errors found before any work should be usageErrors (exit status 2).
	run func(args []string) error
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("duplicate command " + c.name)
	}
	commands[c.name] = c
}

// Exit statuses (documented in `lwgcn help`).
const (
	exitFailure = 1 // the command ran and failed
	exitUsage   = 2 // the command line was rejected: unknown command or flag, bad flag value
)

// usageError is a command-line error: main exits with exitUsage.
type usageError struct{ error }

// usageErrorf returns a usageError.
func usageErrorf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// usageShown records that a flag set printed its usage: the flag package
// does so for an unknown flag or a malformed value, and commands do before
// returning a missing-flag error, so main exits with exitUsage then.
var usageShown bool

// newFlagSet returns a flag set that prints usage for the command to stderr.
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.Usage = func() {
		usageShown = true
		fmt.Fprintf(os.Stderr, "usage: lwgcn %s %s\n\nflags:\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// exitStatus is the status main exits with after a command's error.
func exitStatus(err error) int {
	var u usageError
	if errors.As(err, &u) || usageShown {
		return exitUsage
	}
	return exitFailure
}

// startup prints the line every command starts with: what runs and how it
// was built.
func startup(w io.Writer) {
	fmt.Fprintf(w, "lwgcn: %s; %s\n", buildinfo.SIMDStatus(), buildinfo.Get())
	if !buildinfo.SIMD {
		fmt.Fprintln(w, buildinfo.SIMDWarning)
	}
}

// cpuProfileEnv names the environment variable that asks for a CPU profile
// of the command (read it with `go tool pprof bin/lwgcn FILE`).
const cpuProfileEnv = "LWGCN_CPUPROFILE"

// isProfile accepts what a CPU profile file holds: gzip-compressed data
// (pprof's format), or nothing.
func isProfile(data []byte) error {
	if len(data) > 0 && !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return errors.New("is not a CPU profile (pprof files are gzip-compressed)")
	}
	return nil
}

// startCPUProfile starts a CPU profile into path (nothing when path is
// empty); the returned function stops it and renames it into place. An
// existing file that is not a profile (a results file named by mistake) is
// refused before the command runs.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	if err := checkOutput(cpuProfileEnv+"=", path, isProfile); err != nil {
		return nil, err
	}
	target, err := results.Target(path)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", cpuProfileEnv, path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", cpuProfileEnv, path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("%s=%s: %w", cpuProfileEnv, path, err)
	}
	fmt.Fprintf(os.Stderr, "lwgcn: writing a CPU profile to %s (%s)\n", path, cpuProfileEnv)
	return func() {
		pprof.StopCPUProfile()
		err := f.Close()
		if err == nil {
			err = os.Chmod(f.Name(), 0o644)
		}
		if err == nil {
			err = os.Rename(f.Name(), target)
		}
		if err != nil {
			os.Remove(f.Name())
			fmt.Fprintf(os.Stderr, "lwgcn: %s=%s: %v\n", cpuProfileEnv, path, err)
		}
	}, nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: lwgcn <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun `lwgcn <command> -h` for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 the command failed, 2 the command line was rejected (unknown command or\n"+
		"flag, malformed or out-of-range flag value, missing required flag).")
	fmt.Fprintf(w, "Environment: %s=FILE writes a CPU profile of the command to FILE (go tool pprof bin/lwgcn FILE).\n", cpuProfileEnv)
	fmt.Fprintf(w, "%s=16GiB sets the memory budget that sizes read from files, flags and the environment are checked\n"+
		"against before anything is allocated (default: the memory available).\n", limits.EnvMaxMemory)
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "help" || os.Args[1] == "-h" || os.Args[1] == "--help" {
		usage(os.Stdout)
		return
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "lwgcn: unknown command %q\n\n", os.Args[1])
		usage(os.Stderr)
		os.Exit(exitUsage)
	}
	startup(os.Stderr)
	// A malformed memory budget is an error in the command's environment,
	// said before any work (every size check reads it).
	if _, err := limits.Budget(); err != nil {
		fmt.Fprintln(os.Stderr, "lwgcn:", err)
		os.Exit(exitUsage)
	}
	stopProfile, err := startCPUProfile(os.Getenv(cpuProfileEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "lwgcn:", err)
		os.Exit(exitFailure)
	}
	err = c.run(os.Args[2:])
	stopProfile()
	if err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "lwgcn") {
			msg = "lwgcn " + c.name + ": " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(exitStatus(err))
	}
}
