package experiments

import (
	"context"
	"fmt"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// The paper's grid: "we vary the hidden dimension and weight decay in
// {32,64,128,256} and {0.05,0.005,0.0005,0.00005}".
var (
	GridHidden      = []int{32, 64, 128, 256}
	GridWeightDecay = []float64{5e-2, 5e-3, 5e-4, 5e-5}
)

// Grid runs spec (its Datasets and Methods) once per (hidden, weight decay)
// pair into spec.ResultsPath, resuming recorded runs. Selection uses
// validation accuracy only (GridBest).
func Grid(ctx context.Context, b compute.Backend, info backend.Info, spec Spec, hidden []int, wds []float64) (*results.File, error) {
	var variants []Spec
	for _, h := range hidden {
		for _, wd := range wds {
			s := spec
			s.Override.Hidden = h
			s.Override.WeightDecay = wd
			if wd == 0 {
				s.Override.WeightDecay = -1 // explicit zero
			}
			variants = append(variants, s)
		}
	}
	if len(variants) == 0 {
		return nil, fmt.Errorf("experiments: grid without hidden sizes or weight decays")
	}
	return runSession(ctx, b, info, spec, variants)
}

// DepthLayers are the depths of the paper's layer-sensitivity figure.
var DepthLayers = []int{2, 3, 4, 5, 6}

// Depth runs spec once per depth (Overrides.Layers) into spec.ResultsPath,
// resuming recorded runs: the appendix figure "Impacts of label-wise
// aggregation layers".
func Depth(ctx context.Context, b compute.Backend, info backend.Info, spec Spec, layers []int) (*results.File, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("experiments: depth study without layers")
	}
	variants := make([]Spec, len(layers))
	for i, l := range layers {
		variants[i] = spec
		variants[i].Override.Layers = l
	}
	return runSession(ctx, b, info, spec, variants)
}
