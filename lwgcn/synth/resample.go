package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Realised are the statistics a generator actually produced.
type Realised struct {
	// TargetH and TargetDegree are the requested homophily and average degree.
	TargetH, TargetDegree float64
	// H is the realised edge homophily (NaN when there is no edge).
	H float64
	// AverageDegree is 2*UndirectedEdges/N, the graph's AverageDegree.
	AverageDegree float64
	// UndirectedEdges is m; Homophilic + Heterophilic = m.
	UndirectedEdges, Homophilic, Heterophilic int
	// HomophilicAdded and HeterophilicAdded count random pairs that were not
	// edges of the base graph.
	HomophilicAdded, HeterophilicAdded int
	// BaseHomophilic and BaseHeterophilic are the base's undirected edges of
	// each kind (between labelled nodes, self loops dropped).
	BaseHomophilic, BaseHeterophilic int
}

// String gives a one-line summary.
func (r Realised) String() string {
	return fmt.Sprintf("h=%.4f (target %.4g) d=%.4f (target %.4g) m=%d, added %d homophilic / %d heterophilic",
		r.H, r.TargetH, r.AverageDegree, r.TargetDegree, r.UndirectedEdges, r.HomophilicAdded, r.HeterophilicAdded)
}

// ResampleHomophily is the paper's Algorithm 2. It keeps base's nodes,
// features, labels and splits and replaces its edges by m = round(d*N/2)
// undirected edges, m_s = round(h*m) of them homophilic and m - m_s
// heterophilic, stored in both directions (so the output's AverageDegree is
// 2m/N, within 1/N of d, and its edge homophily m_s/m is within 0.5/m of h).
//
// The base's edges are read as undirected pairs {u,v} (u != v, duplicates
// merged, both endpoints labelled; unlabelled nodes get no edge) and split
// into homophilic and heterophilic sets. Each kind is sampled without
// replacement from the base's set; when the base has too few, all of them are
// kept and random pairs of that kind (same class, respectively different
// classes) that are not yet edges are added, uniformly. The paper describes
// the top-up only for homophilic edges; doing the same for heterophilic ones
// lets homophilic bases reach low h. The paper's Algorithm counts h*d*|V|
// edges, which with d the average degree double-counts undirected edges; we
// use d*N/2.
func ResampleHomophily(base *graph.Graph, h, degree float64, rng *rand.Rand) (*graph.Graph, Realised, error) {
	r := Realised{TargetH: h, TargetDegree: degree}
	if base == nil {
		return nil, r, fmt.Errorf("synth: ResampleHomophily: nil base graph")
	}
	fail := func(format string, args ...any) (*graph.Graph, Realised, error) {
		return nil, r, fmt.Errorf("synth: ResampleHomophily(%s): %s", base.Name(), fmt.Sprintf(format, args...))
	}
	if rng == nil {
		return fail("nil *rand.Rand")
	}
	if !(h >= 0 && h <= 1) {
		return fail("target homophily h = %v, need 0 <= h <= 1", h)
	}
	if !(degree >= 0) || math.IsInf(degree, 0) {
		return fail("target average degree d = %v, need a finite d >= 0", degree)
	}
	if base.Labels() == nil {
		return fail("base graph has no labels")
	}
	n := base.NumNodes()
	ci := newClassIndex(base.Labels(), base.NumClasses())

	// Unique undirected labelled pairs of the base, split by kind.
	keys := make([]uint64, 0, base.NumEdges())
	labels := base.Labels()
	for e, u := range base.Src() {
		v := base.Dst()[e]
		if u != v && labels[u] >= 0 && labels[v] >= 0 {
			keys = append(keys, pairKey(u, v))
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var hom, het []uint64
	for _, k := range keys {
		if u, v := unpack(k); labels[u] == labels[v] {
			hom = append(hom, k)
		} else {
			het = append(het, k)
		}
	}
	r.BaseHomophilic, r.BaseHeterophilic = len(hom), len(het)

	m := int(math.Round(degree * float64(n) / 2))
	ms := int(math.Round(h * float64(m)))
	mn := m - ms
	if c := ci.intraCapacity(); int64(ms) > c {
		return fail("%d homophilic edges needed (h=%v, d=%v) but the classes allow only %d same-class pairs", ms, h, degree, c)
	}
	if c := ci.interCapacity(); int64(mn) > c {
		return fail("%d heterophilic edges needed (h=%v, d=%v) but the classes allow only %d different-class pairs", mn, h, degree, c)
	}

	taken := make(pairSet, m)
	out := make([]uint64, 0, m)
	var err error
	out = sampleWithoutReplacement(hom, ms, taken, out, rng)
	if ms > len(hom) {
		r.HomophilicAdded = ms - len(hom)
		if out, err = ci.addRandomPairs(r.HomophilicAdded, true, taken, out, rng); err != nil {
			return fail("%v", err)
		}
	}
	out = sampleWithoutReplacement(het, mn, taken, out, rng)
	if mn > len(het) {
		r.HeterophilicAdded = mn - len(het)
		if out, err = ci.addRandomPairs(r.HeterophilicAdded, false, taken, out, rng); err != nil {
			return fail("%v", err)
		}
	}
	name := fmt.Sprintf("%s-h%.2f-d%g", base.Name(), h, degree)
	g, err := symmetricGraph(base, out, name)
	if err != nil {
		return fail("%v", err)
	}
	r.UndirectedEdges, r.Homophilic, r.Heterophilic = m, ms, mn
	r.AverageDegree = g.AverageDegree()
	r.H = math.NaN()
	if m > 0 {
		r.H = float64(ms) / float64(m)
	}
	return g, r, nil
}

// sampleWithoutReplacement appends min(k, len(pool)) distinct random
// elements of pool to out (a partial Fisher-Yates shuffle of a copy) and
// records them in taken.
func sampleWithoutReplacement(pool []uint64, k int, taken pairSet, out []uint64, rng *rand.Rand) []uint64 {
	k = min(k, len(pool))
	if k == len(pool) {
		for _, x := range pool {
			taken[x] = struct{}{}
		}
		return append(out, pool...)
	}
	p := slices.Clone(pool)
	for i := range k {
		j := i + rng.IntN(len(p)-i)
		p[i], p[j] = p[j], p[i]
		taken[p[i]] = struct{}{}
		out = append(out, p[i])
	}
	return out
}
