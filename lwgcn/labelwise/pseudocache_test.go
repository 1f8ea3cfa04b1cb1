package labelwise

import (
	"context"
	"slices"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// TestPseudoCacheSharesFP: runs that share a PseudoCache train f_P once per
// (nodes, split, seed) and give what they give without it: LW-GCN\G after
// LW-GCN on the same graph, and LW-GCN\G on a graph with other edges (as
// the sweep's points) take the cached pseudo-labels; another split, another
// seed train their own, and a GCN f_P (which reads the edges) is shared only
// on the same edges.
func TestPseudoCacheSharesFP(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	rewired, err := g.WithEdges(g.Dst(), g.Src()) // same nodes, other edges
	if err != nil {
		t.Fatal(err)
	}
	small := func(c Config) Config { c.Epochs, c.PseudoEpochs = 15, 15; return c }
	run := func(cfg Config, gr *graph.Graph, cache *PseudoCache, split int, seed int64) *SplitResult {
		t.Helper()
		r, err := NewRunner(b, info, gr, small(cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		r.UsePseudoCache(cache)
		res, err := r.Run(context.Background(), split, seed)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Finalize()
		return res
	}
	same := func(what string, got, want *SplitResult) {
		t.Helper()
		if got.PseudoTestAcc != want.PseudoTestAcc || got.Final().PseudoAcc != want.Final().PseudoAcc ||
			got.Final().TestAcc != want.Final().TestAcc || got.Final().BestEpoch != want.Final().BestEpoch ||
			!slices.Equal(got.Predictions, want.Predictions) {
			t.Fatalf("%s: f_P test %v, pseudo acc %v, test %v, best epoch %d; alone: %v, %v, %v, %d", what,
				got.PseudoTestAcc, got.Final().PseudoAcc, got.Final().TestAcc, got.Final().BestEpoch,
				want.PseudoTestAcc, want.Final().PseudoAcc, want.Final().TestAcc, want.Final().BestEpoch)
		}
	}
	full, noSel := Defaults("texas"), Defaults("texas").WithoutSelection()
	cache := NewPseudoCache()
	if first := run(full, g, cache, 0, 15); first.PseudoShared || cache.Hits() != 0 {
		t.Fatalf("first run: shared %v, hits %d", first.PseudoShared, cache.Hits())
	}
	for _, tc := range []struct {
		name   string
		cfg    Config
		g      *graph.Graph
		split  int
		seed   int64
		shared bool
	}{
		{"LW-GCN\\G, same graph", noSel, g, 0, 15, true},
		{"LW-GCN\\G, other edges", noSel, rewired, 0, 15, true},
		{"other split", noSel, g, 1, 15, false},
		{"other seed", noSel, g, 0, 16, false},
		{"GCN f_P", noSel.WithGCNPseudoLabels(), g, 0, 15, false},
		{"GCN f_P again", noSel.WithGCNPseudoLabels(), g, 0, 15, true},
		{"GCN f_P, other edges", noSel.WithGCNPseudoLabels(), rewired, 0, 15, false},
	} {
		hits := cache.Hits()
		got := run(tc.cfg, tc.g, cache, tc.split, tc.seed)
		if got.PseudoShared != tc.shared || cache.Hits()-hits != map[bool]int{false: 0, true: 1}[tc.shared] {
			t.Fatalf("%s: shared %v (hits +%d), want %v", tc.name, got.PseudoShared, cache.Hits()-hits, tc.shared)
		}
		same(tc.name, got, run(tc.cfg, tc.g, nil, tc.split, tc.seed))
	}
}
