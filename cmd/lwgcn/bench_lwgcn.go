package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/report"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// benchLWGCN times one full LW-GCN epoch on each dataset with the reference
// settings and merges the rows into path by dataset (results/bench-lwgcn.json;
// "" records nothing).
func benchLWGCN(b compute.Backend, info backend.Info, names []string, minTime time.Duration, opts []datasets.Option, path string) error {
	ctx := context.Background()
	if n := authorsHostNote(info.IsGo(), buildinfo.Get().Vector); n != "" {
		fmt.Println(n)
	}
	var rows []results.EpochBench
	for _, name := range names {
		g, err := experiments.LoadGraph(ctx, name, opts...)
		if err != nil {
			return err
		}
		cfg := labelwise.Defaults(name)
		r, err := labelwise.NewRunner(b, info, g, cfg, nil)
		if err != nil {
			return err
		}
		t, err := r.MeasureEpoch(ctx, minTime)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		row := results.EpochBench{Dataset: name, MsPerEpoch: t.MsPerEpoch, CPUMs: t.CPUMsPerEpoch, PeakRSS: t.PeakRSSBytes,
			Epochs: t.Epochs, Provenance: results.NewProvenance(info.Name)}
		rows = append(rows, row)
		target := report.PyTorchEpochMs[name]
		fmt.Printf("lwgcn epoch %-10s %8.1f ms/epoch (cpu %7.1f, peak RSS %4.0f MiB); authors' PyTorch %4.0f ms: %.1fx (goal %gx)\n",
			name, t.MsPerEpoch, t.CPUMsPerEpoch, float64(t.PeakRSSBytes)/(1<<20), target.Ms, target.Ms/t.MsPerEpoch, target.Goal)
	}
	if path == "" {
		fmt.Fprintln(os.Stderr, "the full LW-GCN epochs are not recorded (-out without -lwgcn-out)")
		return nil
	}
	return updateJSON(path, func(old []byte) (any, error) {
		if old == nil {
			return rows, nil
		}
		prev, err := results.ParseEpochBench(path, old)
		if err != nil {
			return nil, fmt.Errorf("%w (not rewritten)", err)
		}
		prev = slices.DeleteFunc(prev, func(r results.EpochBench) bool {
			return slices.ContainsFunc(rows, func(n results.EpochBench) bool { return n.Dataset == r.Dataset })
		})
		return append(prev, rows...), nil
	})
}

// authorsHostNote warns, for the Go backend without AVX-512 kernels, that
// the authors' figures beside ours come from the reference machine
// (2 cores with AVX-512), where the Go backend runs its AVX-512 kernels:
// the ratios printed here are not that side-by-side comparison. "" when
// there is nothing to say (XLA, AVX-512, or kernels unknown).
func authorsHostNote(isGo bool, vector string) string {
	if !isGo || vector == "" || vector == buildinfo.VectorAVX512 {
		return ""
	}
	return fmt.Sprintf("note: this host runs the Go backend's %s, not AVX-512: the authors' figures below were measured "+
		"on the reference 2-core AVX-512 machine, so these ratios are not the side-by-side comparison (rerun both on one host)",
		map[bool]string{true: "scalar code", false: vector + " kernels"}[vector == buildinfo.VectorNone])
}
