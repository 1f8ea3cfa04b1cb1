package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train/bench"
)

func init() {
	register(command{name: "bench", summary: "time one training epoch of each model at the datasets' sizes (results/bench.json)", run: runBench})
}

func runBench(args []string) error {
	fs := newFlagSet("bench", "[flags]")
	filter := fs.String("filter", "", `run only cases whose "model/graph/fusion=..." contains this, e.g. "/squirrel/"`)
	benchTime := fs.Duration("benchtime", 2*time.Second, "minimum measuring time per case")
	out := fs.String("out", "", "output JSON (default results/bench.json in the repository; \"-\" for stdout only)")
	list := fs.Bool("list", false, "list the cases and exit")
	if err := fs.Parse(args); err != nil {
		return err
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
	rep, err := bench.Run(b, info, cases, bench.Options{Filter: *filter, MinTime: *benchTime,
		Log: func(s string) { fmt.Println(s) }})
	if err != nil {
		return err
	}
	if len(rep.Cases) == 0 {
		return fmt.Errorf("no case matches -filter %q (see -list)", *filter)
	}
	path := *out
	if path == "-" {
		return json.NewEncoder(os.Stdout).Encode(rep)
	}
	if path == "" {
		root := buildinfo.SourceDir()
		if root == "" {
			return fmt.Errorf("not inside the lwgcn repository: pass -out")
		}
		path = filepath.Join(root, "results", "bench.json")
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := results.WriteFileAtomic(path, append(data, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}
