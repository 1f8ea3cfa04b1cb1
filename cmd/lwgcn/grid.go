package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/report"
)

func init() {
	register(command{name: "grid", summary: "the paper's grid search (hidden x weight decay), selected on validation accuracy", run: runGrid})
}

func runGrid(args []string) error {
	fs := newFlagSet("grid", "-datasets texas [flags]")
	dsFlag := fs.String("datasets", "", "comma-separated datasets (required)")
	mFlag := fs.String("methods", "lwgcn", "comma-separated methods")
	hFlag := fs.String("hidden", "32,64,128,256", "hidden sizes")
	wdFlag := fs.String("wd", "0.05,0.005,0.0005,0.00005", "weight decays")
	epochs := fs.Int("epochs", 0, "override the epochs, >= 1 (default: each method's reference)")
	maxRuns := fs.Int("max-runs", 0, "run only the first N (split, seed) runs of each dataset")
	out := fs.String("results", "", "results file (default results/grid.json)")
	data := addDataFlags(fs)
	quiet := fs.Bool("quiet", false, "no per-epoch progress bar")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dsFlag == "" {
		fs.Usage()
		return fmt.Errorf("-datasets is required")
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected arguments %q", fs.Args())
	}
	if err := checkRunFlags(fs, *epochs, *maxRuns); err != nil {
		return err
	}
	var hidden []int
	for _, s := range strings.Split(*hFlag, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 1 {
			return usageErrorf("-hidden %q: %q is not a positive integer", *hFlag, s)
		}
		if err := checkWidthFlag("hidden", v); err != nil {
			return err
		}
		hidden = append(hidden, v)
	}
	var wds []float64
	for _, s := range strings.Split(*wdFlag, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return usageErrorf("-wd %q: %q is not a non-negative number", *wdFlag, s)
		}
		wds = append(wds, v)
	}
	spec := experiments.Spec{Experiment: "grid", Datasets: strings.Split(*dsFlag, ","), Methods: strings.Split(*mFlag, ","),
		DatasetOptions: data.options(), Log: os.Stdout, MaxRuns: *maxRuns,
		ResultsPath: filepath.Join(resultsDir(), "grid.json")}
	if err := checkNameFlags("datasets", spec.Datasets, spec.Methods); err != nil {
		return err
	}
	spec.Override.Epochs = *epochs
	if *out != "" {
		spec.ResultsPath = *out
	}
	if err := checkResultsOutput("-results", spec.ResultsPath); err != nil {
		return err
	}
	s, err := newSession(*quiet)
	if err != nil {
		return err
	}
	defer s.stop()
	spec.Progress = s.progress
	file, err := experiments.Grid(s.ctx, s.backend, s.info, spec, hidden, wds)
	if err != nil {
		return err
	}
	fmt.Print(report.GridMarkdown(file.Runs()))
	return nil
}
