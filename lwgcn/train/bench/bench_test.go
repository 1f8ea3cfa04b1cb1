package bench

import (
	"errors"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
)

func TestRandomGraphSizes(t *testing.T) {
	g, err := RandomGraph(Texas, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 183 || g.NumEdges() != 325 || g.Features().NumCols() != 1703 ||
		g.Features().NNZ() != 183*83 || len(g.Splits()) != 1 {
		t.Fatalf("texas-size graph: %v, nnz %d", g, g.Features().NNZ())
	}
}

// TestSizesMatchTheDatasets: the random benchmark graphs have the real
// datasets' nodes, edges, feature columns and non-zeros per row (rounded),
// so that a timed epoch does the work a training epoch does.
func TestSizesMatchTheDatasets(t *testing.T) {
	for _, s := range []Size{Texas, Chameleon, Squirrel, Cora} {
		g := dstest.Load(t, s.Name)
		f := g.Features()
		nnz := math.Round(float64(f.NNZ()) / float64(f.NumRows()))
		if g.NumNodes() != s.Nodes || g.NumEdges() != s.Edges || f.NumCols() != s.Features || int(nnz) != s.NNZPerRow ||
			g.NumClasses() != s.Classes {
			t.Errorf("%s: size %+v, the dataset has %d nodes, %d edges, %d features with %.0f non-zeros per row, %d classes",
				s.Name, s, g.NumNodes(), g.NumEdges(), f.NumCols(), nnz, g.NumClasses())
		}
	}
}

// TestSuiteSmoke runs the Texas cases briefly (BENCH=filter runs others).
func TestSuiteSmoke(t *testing.T) {
	filter := os.Getenv("BENCH")
	minTime := 10 * time.Millisecond
	if filter == "" {
		filter = "/texas/"
	} else {
		minTime = time.Second
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(b, info, Suite(), Options{Filter: filter, MinTime: minTime, Log: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) == 0 {
		t.Fatal("no cases ran")
	}
	for _, c := range rep.Cases {
		if c.Error != "" {
			t.Errorf("%s/%s: %s", c.Name, c.Graph, c.Error)
		} else if c.MsEpoch <= 0 || c.Epochs <= 0 {
			t.Errorf("%s/%s: %v ms over %d epochs", c.Name, c.Graph, c.MsEpoch, c.Epochs)
		}
	}
}

// Options.Measured receives each case as soon as it is measured, in order,
// and its error stops the suite.
func TestMeasuredCallback(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	opt := Options{Filter: "/texas/fusion=false", MinTime: time.Millisecond, Measured: func(c CaseResult) error {
		got = append(got, c.Name)
		return nil
	}}
	rep, err := Run(b, info, Suite(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range rep.Cases {
		want = append(want, c.Name)
	}
	if len(want) < 2 || !slices.Equal(got, want) {
		t.Fatalf("Measured saw %v, the report has %v", got, want)
	}
	stop := errors.New("disk full")
	got = nil
	opt.Measured = func(c CaseResult) error { got = append(got, c.Name); return stop }
	if _, err := Run(b, info, Suite(), opt); !errors.Is(err, stop) || len(got) != 1 {
		t.Fatalf("Measured's error: err = %v after %d cases, want it after 1", err, len(got))
	}
}

// The GCN cases time the symmetrised graph GCN trains on; the others the
// random graph's directed edges.
func TestGCNTimedOnTheSymmetrisedGraph(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g, err := RandomGraph(Texas, 1)
	if err != nil {
		t.Fatal(err)
	}
	und := g.ToUndirected().NumEdges()
	rep, err := Run(b, info, Suite(), Options{Filter: "/texas/fusion=false", MinTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, c := range rep.Cases {
		seen[c.Name] = c.Edges
	}
	if seen["gcn"] != und || seen["mlp"] != g.NumEdges() || und == g.NumEdges() {
		t.Fatalf("edges timed: gcn %d (symmetrised %d), mlp %d (directed %d)", seen["gcn"], und, seen["mlp"], g.NumEdges())
	}
}
