package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// pairKey packs an unordered pair u != v as min<<32 | max.
func pairKey(u, v int32) uint64 {
	if u > v {
		u, v = v, u
	}
	return uint64(u)<<32 | uint64(v)
}

func unpack(k uint64) (int32, int32) { return int32(k >> 32), int32(uint32(k)) }

// pairSet is a set of unordered pairs.
type pairSet map[uint64]struct{}

func (s pairSet) has(k uint64) bool { _, ok := s[k]; return ok }

// classIndex groups labelled nodes by class.
type classIndex struct {
	members  [][]int32 // members[c] = nodes of class c
	labelled []int32   // all nodes with a label
	labels   []int32
}

func newClassIndex(labels []int32, numClasses int) classIndex {
	ci := classIndex{members: make([][]int32, numClasses), labels: labels}
	for v, y := range labels {
		if y >= 0 && int(y) < numClasses {
			ci.members[y] = append(ci.members[y], int32(v))
			ci.labelled = append(ci.labelled, int32(v))
		}
	}
	return ci
}

// intraCapacity is the number of unordered same-class pairs.
func (ci classIndex) intraCapacity() int64 {
	var s int64
	for _, m := range ci.members {
		n := int64(len(m))
		s += n * (n - 1) / 2
	}
	return s
}

// interCapacity is the number of unordered pairs of different classes.
func (ci classIndex) interCapacity() int64 {
	l := int64(len(ci.labelled))
	var sq int64
	for _, m := range ci.members {
		sq += int64(len(m)) * int64(len(m))
	}
	return (l*l - sq) / 2
}

// addRandomPairs adds need new pairs of one kind (same class when intra,
// different classes otherwise) that are not in taken, uniformly among the
// free pairs of that kind, and records them in taken. It draws by rejection
// while at least half the free pairs remain wanted-free, and enumerates the
// free pairs otherwise (a near-complete class).
func (ci classIndex) addRandomPairs(need int, intra bool, taken pairSet, out []uint64, rng *rand.Rand) ([]uint64, error) {
	if need <= 0 {
		return out, nil
	}
	capacity := ci.interCapacity()
	if intra {
		capacity = ci.intraCapacity()
	}
	used := int64(0)
	for k := range taken {
		u, v := unpack(k)
		if (ci.labels[u] == ci.labels[v]) == intra {
			used++
		}
	}
	free := capacity - used
	kind := "inter-class"
	if intra {
		kind = "intra-class"
	}
	if int64(need) > free {
		return out, fmt.Errorf("synth: need %d more %s pairs but only %d are free (%d in all)", need, kind, free, capacity)
	}
	if free < 2*int64(need) {
		var cand []uint64
		ci.eachPair(intra, func(k uint64) {
			if !taken.has(k) {
				cand = append(cand, k)
			}
		})
		for i := 0; i < need; i++ {
			j := i + rng.IntN(len(cand)-i)
			cand[i], cand[j] = cand[j], cand[i]
			taken[cand[i]] = struct{}{}
			out = append(out, cand[i])
		}
		return out, nil
	}
	var cum []int64 // class weights n_c(n_c-1)/2 for intra draws
	if intra {
		acc := int64(0)
		for _, m := range ci.members {
			n := int64(len(m))
			acc += n * (n - 1) / 2
			cum = append(cum, acc)
		}
	}
	for added := 0; added < need; {
		var u, v int32
		if intra {
			r := rng.Int64N(cum[len(cum)-1])
			c, _ := slices.BinarySearch(cum, r+1)
			m := ci.members[c]
			a := rng.IntN(len(m))
			b := rng.IntN(len(m) - 1)
			if b >= a {
				b++
			}
			u, v = m[a], m[b]
		} else {
			u = ci.labelled[rng.IntN(len(ci.labelled))]
			v = ci.labelled[rng.IntN(len(ci.labelled))]
			if ci.labels[u] == ci.labels[v] {
				continue
			}
		}
		k := pairKey(u, v)
		if taken.has(k) {
			continue
		}
		taken[k] = struct{}{}
		out = append(out, k)
		added++
	}
	return out, nil
}

// eachPair calls f for every unordered pair of the kind.
func (ci classIndex) eachPair(intra bool, f func(uint64)) {
	if intra {
		for _, m := range ci.members {
			for a := range m {
				for b := a + 1; b < len(m); b++ {
					f(pairKey(m[a], m[b]))
				}
			}
		}
		return
	}
	for c, m := range ci.members {
		for c2 := c + 1; c2 < len(ci.members); c2++ {
			for _, u := range m {
				for _, v := range ci.members[c2] {
					f(pairKey(u, v))
				}
			}
		}
	}
}

// symmetricGraph returns base with its edges replaced by both directions of
// every pair, sorted by (source, destination).
func symmetricGraph(base *graph.Graph, keys []uint64, name string) (*graph.Graph, error) {
	src := make([]int32, 0, len(keys))
	dst := make([]int32, 0, len(keys))
	for _, k := range keys {
		u, v := unpack(k)
		src = append(src, u)
		dst = append(dst, v)
	}
	g, err := base.WithEdges(src, dst)
	if err != nil {
		return nil, err
	}
	return g.ToUndirected().WithName(name), nil
}
