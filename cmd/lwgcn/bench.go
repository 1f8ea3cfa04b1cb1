package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train/bench"
)

func init() {
	register(command{name: "bench", summary: "time full LW-GCN epochs on the real datasets and one epoch of each layer (results/bench*.json)", run: runBench})
}

func runBench(args []string) error {
	fs := newFlagSet("bench", "[flags]")
	filter := fs.String("filter", "", `run only cases whose "model/graph/fusion=..." contains this, e.g. "/squirrel/"; `+
		`their results replace those cases in -out, the others are kept; without -lwgcn, no full LW-GCN epoch (with -backends too)`)
	benchTime := fs.Duration("benchtime", 2*time.Second, "minimum measuring time per case")
	out := fs.String("out", "", "output JSON (default results/bench.json in the repository; \"-\" for stdout only); with -lwgcn-only, the full epochs' output")
	list := fs.Bool("list", false, "list the cases and exit")
	lw := fs.String("lwgcn", strings.Join(defaultEpochDatasets, ","), `datasets for the full LW-GCN epoch (results/bench-lwgcn.json); "" to skip`)
	lwOut := fs.String("lwgcn-out", "", "output JSON of the full LW-GCN epochs, merged by dataset (default results/bench-lwgcn.json "+
		"in the repository when -out is not given; with -out, the epochs are printed only unless this is given, but for -lwgcn-only)")
	lwOnly := fs.Bool("lwgcn-only", false, "run only the full LW-GCN epochs, not the layer suite")
	backends := fs.String("backends", "", `compare backends (GOMLX_BACKEND values, e.g. "go,xla:cpu"; an option after a comma stays with its backend: "go,xla:cuda,tf32=false"): the full LW-GCN epoch on the -lwgcn datasets and their layer cases on each, merged row by row into results/bench-backends.json or -out (run under "taskset -c 0" with GOMAXPROCS=1 for one thread)`)
	batchedFlag := fs.Bool("batched", false, "time split-epochs with the runs batched in one computation and alone, with the ratio "+
		"to the authors' code (results/bench-batched.json): the same as `lwgcn bench-batched`, whose flags (-model, -datasets, "+
		"-procs, -runs, ...) follow -batched, which must come first")
	data := addDataFlags(fs)
	if len(args) > 0 && (args[0] == "-batched" || args[0] == "--batched") {
		return runBenchBatched(args[1:])
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *batchedFlag {
		return usageErrorf("-batched must come first: lwgcn bench -batched [bench-batched flags]")
	}
	if *benchTime <= 0 {
		return usageErrorf("-benchtime %v: must be > 0", *benchTime)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *backends != "" {
		path := *out
		if path == "" {
			root := buildinfo.SourceDir()
			if root == "" {
				return fmt.Errorf("not inside the lwgcn repository: pass -out")
			}
			path = filepath.Join(root, "results", "bench-backends.json")
		}
		configs, err := splitBackends(*backends)
		if err != nil {
			return err
		}
		epochs, cases, err := backendSelection(splitList(*lw), set["lwgcn"], *filter, *lwOnly)
		if err != nil {
			return err
		}
		if err := checkOutput("-out", path, jsonOf("a backend comparison (bench-backends.json)", readBackendRows)); err != nil {
			return err
		}
		return benchBackends(configs, epochs, cases, *benchTime, data.options(), path)
	}
	cases := bench.Suite()
	if *list {
		for _, c := range cases {
			fmt.Println(c.Key())
		}
		return nil
	}
	// What runs, and where it goes, is settled before any measuring.
	suite := !*lwOnly
	if suite && *filter != "" && !slices.ContainsFunc(cases, func(c bench.Case) bool { return strings.Contains(c.Key(), *filter) }) {
		return usageErrorf("-filter %q matches no case (see -list)", *filter)
	}
	lwNames := *lw
	if *filter != "" && !set["lwgcn"] {
		lwNames = "" // a subset of the suite asked for, not the full epochs
	}
	root := buildinfo.SourceDir()
	path := *out
	if path == "" && suite {
		if root == "" {
			return fmt.Errorf("not inside the lwgcn repository: pass -out")
		}
		path = filepath.Join(root, "results", "bench.json")
	}
	lwPath := *lwOut
	if lwPath == "" && !suite {
		lwPath = *out // -lwgcn-only: -out is the only output, the full epochs' ("-": stdout)
	}
	if lwPath == "" && *out == "" && lwNames != "" {
		if root == "" {
			return fmt.Errorf("not inside the lwgcn repository: pass -lwgcn-out")
		}
		lwPath = filepath.Join(root, "results", "bench-lwgcn.json")
	}
	if suite {
		if err := checkOutput("-out", path, jsonOf("a benchmark report (bench.json)", readBenchReport)); err != nil {
			return err
		}
	}
	if lwNames != "" {
		if err := checkOutput("-lwgcn-out", lwPath, jsonOf("a full-epoch table (bench-lwgcn.json)", readEpochRows)); err != nil {
			return err
		}
	}
	b, info, err := backend.Shared()
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, info)
	if lwNames != "" {
		if err := benchLWGCN(b, info, strings.Split(lwNames, ","), *benchTime, data.options(), lwPath); err != nil {
			return err
		}
	}
	if !suite {
		return nil
	}
	rep, err := bench.Run(b, info, cases, bench.Options{Filter: *filter, MinTime: *benchTime,
		Log: func(s string) { fmt.Println(s) }})
	if err != nil {
		return err
	}
	return updateJSON(path, func(old []byte) (any, error) { return mergeBenchReport(old, rep) })
}

// readBenchReport checks that data is a benchmark report (bench.json).
func readBenchReport(data []byte) error {
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(data, &rep); err != nil {
		return err
	}
	if _, ok := rep["cases"]; !ok {
		return errors.New(`no "cases"`)
	}
	var cases []map[string]any
	return json.Unmarshal(rep["cases"], &cases)
}

// readEpochRows checks that data is a full-epoch table (bench-lwgcn.json).
func readEpochRows(data []byte) error {
	_, err := results.ParseEpochBench("", data)
	return err
}

// readBackendRows checks that data is a backend comparison.
func readBackendRows(data []byte) error {
	_, err := results.ParseBackendBench("", data)
	return err
}

// mergeBenchReport returns rep with the cases of the report in old (nil:
// none) that rep did not measure (name, graph and fusion) kept after its
// own. Each case carries the date and commit of the run that measured it,
// since the report's header describes the last run only.
func mergeBenchReport(old []byte, rep *bench.Report) (any, error) {
	raw, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	var merged map[string]any
	if err := json.Unmarshal(raw, &merged); err != nil {
		return nil, err
	}
	stamp := func(cases []any, date, commit any) {
		for _, c := range cases {
			if m, ok := c.(map[string]any); ok {
				if _, has := m["date"]; !has {
					m["date"] = date
				}
				if _, has := m["commit"]; !has && commit != nil {
					m["commit"] = commit
				}
			}
		}
	}
	key := func(c any) string {
		m, _ := c.(map[string]any)
		return fmt.Sprintf("%v/%v/fusion=%v", m["name"], m["graph"], m["fusion"])
	}
	commitOf := func(r map[string]any) any {
		b, _ := r["build"].(map[string]any)
		return b["commit"]
	}
	cases, _ := merged["cases"].([]any)
	stamp(cases, merged["date"], commitOf(merged))
	if old != nil {
		var prev map[string]any
		if err := json.Unmarshal(old, &prev); err != nil {
			return nil, fmt.Errorf("%w (not rewritten)", err)
		}
		oldCases, _ := prev["cases"].([]any)
		stamp(oldCases, prev["date"], commitOf(prev))
		have := map[string]bool{}
		for _, c := range cases {
			have[key(c)] = true
		}
		for _, c := range oldCases {
			if !have[key(c)] {
				cases = append(cases, c)
			}
		}
	}
	merged["cases"] = cases
	return merged, nil
}
