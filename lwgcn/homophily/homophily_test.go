package homophily

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// path4 is the undirected path 0-1-2-3 with labels 0,0,1,1 (each edge stored
// in both directions), optionally with an isolated node 4 of class 2.
func path4(withIsolatedClass bool) *graph.Graph {
	s := graph.Spec{
		Name: "path4", NumNodes: 4,
		Src:    []int32{0, 1, 1, 2, 2, 3},
		Dst:    []int32{1, 0, 2, 1, 3, 2},
		Labels: []int32{0, 0, 1, 1},
	}
	if withIsolatedClass {
		s.NumNodes, s.Labels = 5, append(s.Labels, 2)
	}
	return graph.MustNew(s)
}

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("%s = %.15g, want %.15g", name, got, want)
	}
}

// Hand computation for path4: 4 of 6 directed edges join equal labels; node
// ratios 1, 1/2, 1/2, 1; class rows h_0 = h_1 = 2/3 with class shares 1/2;
// endpoint shares 1/2 each; joint p(0,0) = p(1,1) = 1/3, p(0,1) = p(1,0) = 1/6.
func TestHandComputedPath(t *testing.T) {
	g := path4(false)
	e, _ := EdgeHomophily(g)
	near(t, "edge", e, 4.0/6)
	n, _ := NodeHomophily(g)
	near(t, "node", n, (1+0.5+0.5+1)/4)
	ci, _ := ClassInsensitiveHomophily(g)
	near(t, "class-insensitive", ci, ((2.0/3-0.5)+(2.0/3-0.5))/1)
	adj, _ := AdjustedHomophily(g)
	near(t, "adjusted", adj, (4.0/6-0.5)/(1-0.5))
	li, _ := LabelInformativeness(g)
	hJoint := -(2*(1.0/3)*math.Log(1.0/3) + 2*(1.0/6)*math.Log(1.0/6))
	near(t, "label informativeness", li, 2-hJoint/math.Log(2))
	m, err := CompatibilityMatrix(g)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Counts[0], []int64{2, 1}) || !slices.Equal(m.Counts[1], []int64{1, 2}) {
		t.Errorf("compatibility counts %v", m.Counts)
	}
	near(t, "H[0][1]", m.Fractions[0][1], 1.0/3)
}

// A class whose only node has no edge: LINKX's code yields NaN for h_2; here
// it contributes 0 and the normaliser is C-1 = 2 with class shares over 5
// labeled nodes: (2/3-2/5)*2 / 2 = 4/15. Edge-based measures are unchanged.
func TestClassWithZeroDegree(t *testing.T) {
	g := path4(true)
	ci, err := ClassInsensitiveHomophily(g)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "class-insensitive", ci, 4.0/15)
	n, _ := NodeHomophily(g)
	near(t, "node (isolated node left out)", n, 0.75)
	adj, _ := AdjustedHomophily(g)
	near(t, "adjusted", adj, 1.0/3)
	m, _ := CompatibilityMatrix(g)
	if !slices.Equal(m.EmptyRows, []int{2}) || m.Fractions[2][2] != 0 {
		t.Errorf("empty rows %v, row 2 %v", m.EmptyRows, m.Fractions[2])
	}
	all := All(g)
	if len(all.Undefined) != 0 {
		t.Errorf("unexpected undefined measures %v", all.Undefined)
	}
}

func TestSingleClass(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "one", NumNodes: 3, Src: []int32{0, 1}, Dst: []int32{1, 2}, Labels: []int32{0, 0, 0}})
	e, _ := EdgeHomophily(g)
	n, _ := NodeHomophily(g)
	near(t, "edge", e, 1)
	near(t, "node", n, 1)
	for name, fn := range map[string]func(*graph.Graph) (float64, error){
		"class-insensitive": ClassInsensitiveHomophily, "adjusted": AdjustedHomophily, "LI": LabelInformativeness,
	} {
		if _, err := fn(g); !errors.Is(err, ErrOneClass) {
			t.Errorf("%s: err = %v, want ErrOneClass", name, err)
		}
	}
	all := All(g)
	if !math.IsNaN(all.Adjusted) || all.Undefined["Adjusted"] == nil || len(all.Undefined) != 3 {
		t.Errorf("All on one class: %+v", all)
	}
}

func TestNoEdges(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "empty", NumNodes: 3, Labels: []int32{0, 1, 0}})
	for name, fn := range map[string]func(*graph.Graph) (float64, error){
		"edge": EdgeHomophily, "node": NodeHomophily, "class-insensitive": ClassInsensitiveHomophily,
		"adjusted": AdjustedHomophily, "LI": LabelInformativeness,
	} {
		_, err := fn(g)
		if !errors.Is(err, ErrNoEdges) {
			t.Errorf("%s: err = %v, want ErrNoEdges", name, err)
		}
	}
	noLabels := graph.MustNew(graph.Spec{Name: "nolabels", NumNodes: 2, Src: []int32{0}, Dst: []int32{1}})
	if _, err := EdgeHomophily(noLabels); !errors.Is(err, ErrNoLabels) {
		t.Errorf("err = %v, want ErrNoLabels", err)
	}
}

// Edges touching an unlabeled node are ignored.
func TestUnlabeledEndpoints(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "u", NumNodes: 3, Src: []int32{0, 1, 2}, Dst: []int32{1, 2, 0},
		Labels: []int32{0, 0, graph.Unlabeled}})
	e, err := EdgeHomophily(g)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "edge", e, 1)
}

// Direction: node homophily looks at in-neighbours (the centre is Dst).
// Star with edges from three leaves into centre 0 (labels 0 | 0,1,1): centre 0
// has ratio 1/3 and the leaves have no in-edges.
func TestNodeHomophilyUsesInNeighbours(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "star", NumNodes: 4, Src: []int32{1, 2, 3}, Dst: []int32{0, 0, 0},
		Labels: []int32{0, 0, 1, 1}})
	n, _ := NodeHomophily(g)
	near(t, "node", n, 1.0/3)
	r, _ := NodeHomophily(g.Reverse())
	near(t, "node reversed", r, 1.0/3) // leaves 1,2,3 each see the centre: 1, 0, 0
}

// A perfectly heterophilic bipartite graph with balanced classes has adjusted
// homophily -1 and LI 1 (a neighbour's class is fully determined).
func TestBipartiteExtremes(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "k22", NumNodes: 4,
		Src: []int32{0, 2, 0, 3, 1, 2, 1, 3}, Dst: []int32{2, 0, 3, 0, 2, 1, 3, 1}, Labels: []int32{0, 0, 1, 1}})
	adj, _ := AdjustedHomophily(g)
	near(t, "adjusted", adj, -1)
	li, _ := LabelInformativeness(g)
	near(t, "LI", li, 1)
	ci, _ := ClassInsensitiveHomophily(g)
	near(t, "class-insensitive", ci, 0)
}

func ExampleEdgeHomophily() {
	g := graph.MustNew(graph.Spec{
		Name: "triangle", NumNodes: 3,
		Src: []int32{0, 1, 1, 2, 2, 0}, Dst: []int32{1, 0, 2, 1, 0, 2},
		Labels: []int32{0, 0, 1},
	})
	h, _ := EdgeHomophily(g)
	// Endpoint shares 4/6 and 2/6: (1/3 - 5/9) / (1 - 5/9) = -1/2.
	adj, _ := AdjustedHomophily(g)
	fmt.Printf("edge %.3f, adjusted %.3f\n", h, adj)
	// Output:
	// edge 0.333, adjusted -0.500
}
