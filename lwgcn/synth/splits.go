package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Geom-GCN's split proportions (48 % train, 32 % validation, 20 % test) and
// its number of splits.
const (
	DefaultTrainFraction = 0.48
	DefaultValFraction   = 0.32
	DefaultNumSplits     = 10
)

// SplitOptions configure RandomSplits; zero fields take the defaults.
type SplitOptions struct {
	NumSplits int
	// TrainFraction and ValFraction of the labelled nodes; the rest is test.
	TrainFraction, ValFraction float64
	// Stratified applies the fractions within every class.
	Stratified bool
}

func (o SplitOptions) withDefaults() SplitOptions {
	if o.NumSplits == 0 {
		o.NumSplits = DefaultNumSplits
	}
	if o.TrainFraction == 0 && o.ValFraction == 0 {
		o.TrainFraction, o.ValFraction = DefaultTrainFraction, DefaultValFraction
	}
	return o
}

// RandomSplits draws NumSplits independent random partitions of the labelled
// nodes (label >= 0) into round(TrainFraction*n) training,
// round(ValFraction*n) validation and the remaining test nodes (per class
// when Stratified).
func RandomSplits(labels []int32, opts SplitOptions, rng *rand.Rand) ([]graph.Split, error) {
	opts = opts.withDefaults()
	if rng == nil {
		return nil, fmt.Errorf("synth: RandomSplits: nil *rand.Rand")
	}
	if opts.NumSplits < 0 {
		return nil, fmt.Errorf("synth: RandomSplits: NumSplits = %d, need >= 0", opts.NumSplits)
	}
	tf, vf := opts.TrainFraction, opts.ValFraction
	if !(tf >= 0 && vf >= 0 && tf+vf <= 1) {
		return nil, fmt.Errorf("synth: RandomSplits: fractions train %v and val %v must be >= 0 with sum <= 1", tf, vf)
	}
	groups := [][]int32{nil}
	for v, y := range labels {
		if y < 0 {
			continue
		}
		g := 0
		if opts.Stratified {
			g = int(y)
			for len(groups) <= g {
				groups = append(groups, nil)
			}
		}
		groups[g] = append(groups[g], int32(v))
	}
	splits := make([]graph.Split, opts.NumSplits)
	for s := range splits {
		sp := graph.Split{Train: []int32{}, Val: []int32{}, Test: []int32{}}
		for _, grp := range groups {
			p := slices.Clone(grp)
			rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			nt := int(math.Round(tf * float64(len(p))))
			nv := min(int(math.Round(vf*float64(len(p)))), len(p)-nt)
			sp.Train = append(sp.Train, p[:nt]...)
			sp.Val = append(sp.Val, p[nt:nt+nv]...)
			sp.Test = append(sp.Test, p[nt+nv:]...)
		}
		slices.Sort(sp.Train)
		slices.Sort(sp.Val)
		slices.Sort(sp.Test)
		splits[s] = sp
	}
	return splits, nil
}
