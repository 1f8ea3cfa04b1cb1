package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/train/bench"
)

func init() {
	register(command{name: "bench", summary: "time full LW-GCN epochs on the real datasets and one epoch of each layer (results/bench*.json)", run: runBench})
}

func runBench(args []string) error {
	fs := newFlagSet("bench", "[flags]")
	filter := fs.String("filter", "", `run only cases whose "model/graph/fusion=..." contains this, e.g. "/squirrel/"`)
	benchTime := fs.Duration("benchtime", 2*time.Second, "minimum measuring time per case")
	out := fs.String("out", "", "output JSON (default results/bench.json in the repository; \"-\" for stdout only)")
	list := fs.Bool("list", false, "list the cases and exit")
	lw := fs.String("lwgcn", "texas,chameleon,squirrel,cora", `datasets for the full LW-GCN epoch (results/bench-lwgcn.json); "" to skip`)
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
		return benchBackends(configs, splitList(*lw), *lwOnly, *benchTime, data.options(), path)
	}
	cases := bench.Suite()
	if *list {
		for _, c := range cases {
			fmt.Println(c.Key())
		}
		return nil
	}
	b, info, err := backend.Shared()
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, info)
	path := *out
	if path == "" {
		root := buildinfo.SourceDir()
		if root == "" {
			return fmt.Errorf("not inside the lwgcn repository: pass -out")
		}
		path = filepath.Join(root, "results", "bench.json")
	}
	if *lw != "" {
		if err := benchLWGCN(b, info, strings.Split(*lw, ","), *benchTime, data.options(), benchLWGCNPath(path)); err != nil {
			return err
		}
	}
	if *lwOnly {
		return nil
	}
	rep, err := bench.Run(b, info, cases, bench.Options{Filter: *filter, MinTime: *benchTime,
		Log: func(s string) { fmt.Println(s) }})
	if err != nil {
		return err
	}
	if len(rep.Cases) == 0 {
		return fmt.Errorf("no case matches -filter %q (see -list)", *filter)
	}
	return writeJSON(path, rep)
}
