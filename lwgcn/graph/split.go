package graph

import (
	"fmt"
	"slices"
)

// Split is one train/validation/test partition of (some of) the nodes, as
// sorted, disjoint node id lists. Nodes in none of the three sets are simply
// unused (Planetoid's public split leaves most nodes out).
type Split struct {
	Train, Val, Test []int32
}

// SplitFromMasks builds a Split from boolean masks of equal length.
func SplitFromMasks(train, val, test []bool) (Split, error) {
	if len(train) != len(val) || len(train) != len(test) {
		return Split{}, fmt.Errorf("split masks have lengths %d, %d, %d; want equal lengths",
			len(train), len(val), len(test))
	}
	idx := func(m []bool) []int32 {
		out := []int32{}
		for i, b := range m {
			if b {
				out = append(out, int32(i))
			}
		}
		return out
	}
	return Split{Train: idx(train), Val: idx(val), Test: idx(test)}, nil
}

// Masks returns boolean masks of length n.
func (s Split) Masks(n int) (train, val, test []bool) {
	mask := func(ids []int32) []bool {
		m := make([]bool, n)
		for _, v := range ids {
			m[v] = true
		}
		return m
	}
	return mask(s.Train), mask(s.Val), mask(s.Test)
}

// String gives the set sizes, e.g. "87/59/37".
func (s Split) String() string {
	return fmt.Sprintf("%d/%d/%d", len(s.Train), len(s.Val), len(s.Test))
}

// normalized returns a copy with sorted ids after checking range, duplicates
// and disjointness.
func (s Split) normalized(n int) (Split, error) {
	out := Split{Train: slices.Clone(s.Train), Val: slices.Clone(s.Val), Test: slices.Clone(s.Test)}
	owner := make([]byte, n)
	for k, set := range []struct {
		name string
		ids  []int32
	}{{"train", out.Train}, {"val", out.Val}, {"test", out.Test}} {
		for _, v := range set.ids {
			if v < 0 || int(v) >= n {
				return Split{}, fmt.Errorf("%s node %d outside [0,%d)", set.name, v, n)
			}
			if owner[v] != 0 {
				prev := []string{"", "train", "val", "test"}[owner[v]]
				if prev == set.name {
					return Split{}, fmt.Errorf("%s lists node %d twice", set.name, v)
				}
				return Split{}, fmt.Errorf("node %d is in both %s and %s", v, prev, set.name)
			}
			owner[v] = byte(k + 1)
		}
		slices.Sort(set.ids)
	}
	if out.Train == nil {
		out.Train = []int32{}
	}
	if out.Val == nil {
		out.Val = []int32{}
	}
	if out.Test == nil {
		out.Test = []int32{}
	}
	return out, nil
}
