package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

func init() {
	register(command{name: "pyg-anchor", summary: "record the PyTorch Geometric speed anchor: join pyg_bench.py's and go_bench.sh's JSON lines into results/bench-pyg.json", run: runPyGAnchor})
}

// runPyGAnchor joins the two halves of ../shared/anchors/pyg (PyG's
// timings and lwgcn's bench-batched -runs 1 on the same epochs) into
// results/bench-pyg.json, rows of the same dataset, model and thread
// count replacing older ones; `lwgcn results` renders it.
func runPyGAnchor(args []string) error {
	fs := newFlagSet("pyg-anchor", "-pyg FILE -lwgcn FILE [-out FILE]")
	pygPath := fs.String("pyg", "build/pyg-anchor/pyg.jsonl", "pyg_bench.py's JSON lines (--out)")
	lwgcnPath := fs.String("lwgcn", "build/pyg-anchor/go_bench.jsonl", "go_bench.sh's JSON lines")
	out := fs.String("out", "", "output JSON (default results/bench-pyg.json in the repository; \"-\" for stdout only)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErrorf("pyg-anchor: unexpected argument %q", fs.Arg(0))
	}
	path := *out
	if path == "" {
		root := buildinfo.SourceDir()
		if root == "" {
			return fmt.Errorf("not inside the lwgcn repository: pass -out")
		}
		path = filepath.Join(root, "results", "bench-pyg.json")
	}
	rows, err := results.JoinPyGAnchor(*pygPath, *lwgcnPath)
	if err != nil {
		return err
	}
	for _, r := range rows {
		f := r.Fastest()
		fmt.Printf("%-10s %-6s %d thread(s): lwgcn %8.2f ms, PyG fastest %8.2f ms (%s, %s features): PyG / lwgcn %.2fx\n",
			r.Dataset, r.Model, r.Threads, r.LwgcnMs, f.Ms, f.Adj, f.X, f.Ms/r.LwgcnMs)
	}
	return updateJSON(path, func(old []byte) (any, error) {
		var kept []results.PyGAnchor
		if old != nil {
			if err := json.Unmarshal(old, &kept); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		key := func(r results.PyGAnchor) string { return fmt.Sprintf("%s|%s|%d", r.Dataset, r.Model, r.Threads) }
		fresh := map[string]bool{}
		for _, r := range rows {
			fresh[key(r)] = true
		}
		merged := rows
		for _, r := range kept {
			if !fresh[key(r)] {
				merged = append(merged, r)
			}
		}
		return merged, nil
	})
}
