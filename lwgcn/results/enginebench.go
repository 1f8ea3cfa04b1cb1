package results

import (
	"errors"
	"fmt"
)

// EngineBench is one A/B row of `lwgcn bench-engine` (results/bench-engine.json,
// a JSON list): a dataset's full LW-GCN epoch at a thread count, timed in
// alternating child processes for each engine variant.
type EngineBench struct {
	Dataset string `json:"dataset"`
	Threads int    `json:"threads"`
	Blocks  int    `json:"blocks"`
	// Variants: "kernels off" (the patched engine with every lwgcn kernel
	// off: compute v0.1.14's own ops), "kernels on", and optionally a
	// baseline binary ("main").
	Variants []EngineVariant `json:"variants"`
}

// EngineVariant is the median of one variant's blocks.
type EngineVariant struct {
	Name       string  `json:"name"`
	MsPerEpoch float64 `json:"ms_per_epoch"`
	CPUMs      float64 `json:"cpu_ms_per_epoch"`
	// OtherCores is the busiest of the variant's blocks: the CPUs other
	// processes kept busy while it ran (CPUSample.OtherCores).
	OtherCores float64 `json:"other_cores"`
	// BlockMs are the blocks' ms per epoch, in order.
	BlockMs    []float64  `json:"block_ms"`
	Provenance Provenance `json:"provenance"`
}

// Variant returns the variant called name, or false.
func (e EngineBench) Variant(name string) (EngineVariant, bool) {
	for _, v := range e.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return EngineVariant{}, false
}

// ReadEngineBench reads and checks a bench-engine.json file.
func ReadEngineBench(path string) ([]EngineBench, error) {
	return readRows(path, false, func(r *EngineBench) error {
		if r.Dataset == "" || r.Threads < 1 || len(r.Variants) == 0 {
			return errors.New("has no dataset, threads or variants")
		}
		for _, v := range r.Variants {
			if v.Name == "" || !(v.MsPerEpoch > 0) {
				return fmt.Errorf("(%s, %d threads): variant %q has no positive ms_per_epoch", r.Dataset, r.Threads, v.Name)
			}
		}
		return nil
	})
}
