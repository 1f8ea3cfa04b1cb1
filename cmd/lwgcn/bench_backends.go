package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train/bench"
)

// backendLayerCases are the layer cases `bench -backends` times on each
// backend: the parts of an LW-GCN epoch (label-wise network, GCNII) and the
// GCN and MLP baselines, at the fusion setting lwgcn uses (fusion is a
// pure-Go switch; XLA fuses on its own).
var backendLayerCases = []string{"gcn", "labelwise-h64", "gcnii-2", "mlp", "labelwise-h256", "gcnii-64"}

// benchBackends times, on each backend of configs (GOMLX_BACKEND values),
// the full LW-GCN epoch on each dataset and the layer cases of graphs of
// those datasets' sizes, and merges the timings into path
// (results/bench-backends.json) row by row. Backends are created in
// this process one after the other; compile time is recorded apart from the
// epoch time.
func benchBackends(configs, datasetNames []string, cases []bench.Case, minTime time.Duration, opts []datasets.Option, path string) error {
	for _, config := range configs {
		b, info, err := backend.NewFor(config)
		if err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, info)
		threads := fmt.Sprintf("GOMAXPROCS=%d, %d CPUs", runtime.GOMAXPROCS(0), runtime.NumCPU())
		fmt.Printf("== %s (%s)\n", info.Name, threads)
		// Each row is merged into path as soon as it is measured, with the
		// other processes' CPU use during its own timing, so that a run
		// stopped later (an XLA compile can take minutes) keeps what it
		// measured.
		start, sampleErr := results.SampleCPU()
		save := func(row results.BackendBench) error {
			if end, err := results.SampleCPU(); sampleErr == nil && err == nil {
				others := start.OtherCores(end)
				row.OtherCores = &others
				start = end
			}
			return saveBackendRows(path, []results.BackendBench{row})
		}
		for _, name := range datasetNames {
			row, err := benchEpochOn(b, info, name, minTime, opts)
			if err != nil {
				return err
			}
			fmt.Printf("%-10s %-16s %9.1f ms/epoch (cpu %8.1f)  compile %6.2fs (%d graphs, longest %.2fs, epoch %d ops%s)\n", name,
				results.CaseEpoch, row.MsPerEpoch, row.CPUMs, row.CompileSecs, row.Compiles, row.LongestCompileSecs, row.EpochOps,
				hloSize(row.EpochHLOBytes))
			if err := save(row); err != nil {
				return err
			}
		}
		measured := func(c bench.CaseResult) error {
			row := newBackendRow(c.Graph, c.Name, info)
			row.CompileSecs, row.MsPerEpoch, row.CPUMs, row.PeakRSS, row.Epochs, row.Error =
				c.CompileSecs, c.MsEpoch, c.CPUMsEpoch, c.PeakRSSBytes, c.Epochs, c.Error
			if c.Error != "" {
				fmt.Printf("%-10s %-16s error: %s\n", c.Graph, c.Name, c.Error)
			} else {
				fmt.Printf("%-10s %-16s %9.1f ms/epoch (cpu %8.1f)  compile %6.2fs\n", c.Graph, c.Name, c.MsEpoch, c.CPUMsEpoch, c.CompileSecs)
			}
			return save(row)
		}
		if _, err := bench.Run(b, info, cases, bench.Options{MinTime: minTime, Measured: measured}); err != nil {
			return err
		}
		b.Finalize()
	}
	return nil
}

// backendSelection settles what a backend comparison runs: the full
// LW-GCN epoch on the -lwgcn datasets (lwgcnSet: the flag was given) and
// their layer cases (none with -lwgcn-only). With a -filter, only the
// layer cases whose key contains it, on the default datasets unless
// -lwgcn was given, and no full epoch unless -lwgcn was given (as without
// -backends). An empty selection is a usage error, not a silent no-op.
func backendSelection(lwgcn []string, lwgcnSet bool, filter string, epochOnly bool) (epochs []string, cases []bench.Case, err error) {
	epochs = lwgcn
	if filter != "" && !lwgcnSet {
		epochs = nil
		lwgcn = defaultEpochDatasets
	}
	if !epochOnly {
		for _, c := range backendCases(lwgcn) {
			if strings.Contains(c.Key(), filter) {
				cases = append(cases, c)
			}
		}
	}
	if len(epochs) == 0 && len(cases) == 0 {
		what := "no full LW-GCN epoch (-lwgcn names no dataset)"
		if filter != "" && !lwgcnSet {
			what = "no full LW-GCN epoch (-filter without -lwgcn)"
		}
		switch {
		case epochOnly:
			what += " with -lwgcn-only"
		case len(lwgcn) == 0:
			what += " and so no dataset to take layer cases from (drop -lwgcn to filter the default datasets' cases)"
		case filter != "":
			what += fmt.Sprintf(" and no layer case of %q matches -filter %q (see -list)", strings.Join(lwgcn, ","), filter)
		}
		return nil, nil, usageErrorf("-backends: nothing to run: %s", what)
	}
	return epochs, cases, nil
}

// defaultEpochDatasets are -lwgcn's default datasets (the full epoch's).
var defaultEpochDatasets = []string{"texas", "chameleon", "squirrel", "cora"}

// saveBackendRows merges rows into path (or prints them for "-").
func saveBackendRows(path string, rows []results.BackendBench) error {
	if path == "-" {
		return writeJSON(path, rows)
	}
	return updateJSON(path, func(data []byte) (any, error) {
		var old []results.BackendBench
		if data != nil {
			var err error
			if old, err = results.ParseBackendBench(path, data); err != nil {
				return nil, fmt.Errorf("%w (not rewritten)", err)
			}
		}
		return results.MergeBackendBench(old, rows), nil
	})
}

func newBackendRow(dataset, name string, info backend.Info) results.BackendBench {
	return results.BackendBench{Dataset: dataset, Case: name, Backend: info.Name, GOMAXPROCS: runtime.GOMAXPROCS(0),
		CPUs: runtime.NumCPU(), Provenance: results.NewProvenance(info.Name)}
}

// backendCases are the suite's backendLayerCases on graphs of the datasets'
// sizes, with lwgcn's default fusion.
func backendCases(datasetNames []string) []bench.Case {
	var out []bench.Case
	for _, c := range bench.Suite() {
		if c.Fusion != backend.DefaultFusion {
			continue
		}
		for _, n := range datasetNames {
			for _, name := range backendLayerCases {
				if c.Size.Name == n && c.Name == name {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// benchEpochOn times one full LW-GCN epoch on a dataset (reference
// settings) on backend b.
func benchEpochOn(b compute.Backend, info backend.Info, name string, minTime time.Duration, opts []datasets.Option) (results.BackendBench, error) {
	ctx := context.Background()
	row := newBackendRow(name, results.CaseEpoch, info)
	g, err := experiments.LoadGraph(ctx, name, opts...)
	if err != nil {
		return row, err
	}
	r, err := labelwise.NewRunner(b, info, g, labelwise.Defaults(name), nil)
	if err != nil {
		return row, err
	}
	t, err := r.MeasureEpoch(ctx, minTime)
	if err != nil {
		return row, fmt.Errorf("%s on %s: %w", name, info.Name, err)
	}
	row.CompileSecs, row.MsPerEpoch, row.CPUMs, row.PeakRSS, row.Epochs = t.CompileSecs, t.MsPerEpoch, t.CPUMsPerEpoch, t.PeakRSSBytes, t.Epochs
	row.Compiles, row.EpochOps, row.EpochHLOBytes = t.Compiles, t.EpochOps, t.EpochHLOBytes
	row.LongestCompileSecs = t.LongestCompileSecs
	return row, nil
}

// splitList splits a comma-separated flag, dropping empty items.
// splitBackends splits -backends into GOMLX_BACKEND values: a comma
// separates backends, except before an option of the previous one
// ("key=value" with no ":"), so "go,xla:cuda,tf32=false" is go and
// "xla:cuda,tf32=false".
func splitBackends(s string) ([]string, error) {
	var out []string
	for _, x := range splitList(s) {
		if strings.Contains(x, "=") && !strings.Contains(x, ":") {
			if len(out) == 0 {
				return nil, fmt.Errorf("-backends %q: option %q comes before any backend", s, x)
			}
			out[len(out)-1] += "," + x
			continue
		}
		out = append(out, x)
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// hloSize is ", StableHLO <size>" for an XLA epoch graph's program, "" on
// pure Go (no program).
func hloSize(bytes int) string {
	if bytes == 0 {
		return ""
	}
	return fmt.Sprintf(", StableHLO %.1f KiB", float64(bytes)/1024)
}
