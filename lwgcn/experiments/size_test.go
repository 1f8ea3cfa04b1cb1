package experiments

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

func sizeTestGraph(t *testing.T) *graph.Graph {
	t.Helper()
	n := 10
	var src, dst []int32
	for i := range 20 {
		src, dst = append(src, int32(i%n)), append(dst, int32((i+1+i/n)%n))
	}
	feats, err := graph.NewDenseFeatures(n, 5, make([]float32, n*5))
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i % 2)
	}
	g, err := graph.New(graph.Spec{Name: "tiny", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels, NumClasses: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TrainingBytes by hand on 10 nodes, 20 edges, 5 features, 2 classes,
// hidden 4, 2 layers, 1 head, 10 epochs: weights 5*4 + 2*4*4 + 4*2 = 60
// (x 4 copies x 4 bytes = 960), activations (10*4 + 20) x (2+2) x 3 = 720
// values (2880 bytes), history 10 x 256 = 2560: 6400.
func TestTrainingBytes(t *testing.T) {
	g := sizeTestGraph(t)
	if got := TrainingBytes(g, map[string]float64{"hidden": 4, "layers": 2, "heads": 1, "epochs": 10}); got != 6400 {
		t.Errorf("TrainingBytes = %d, want 6400", got)
	}
	t.Setenv(limits.EnvMaxMemory, "6400")
	if err := CheckSize(g, map[string]float64{"hidden": 4, "layers": 2, "epochs": 10}); err != nil {
		t.Errorf("at the budget: %v", err)
	}
	err := CheckSize(g, map[string]float64{"hidden": 4, "layers": 2, "epochs": 11})
	if err == nil || !strings.HasPrefix(err.Error(), "hidden 4, layers 2, epochs 11 on tiny (10 nodes, 20 edges, 5 features): needs about 6.5 KiB") {
		t.Errorf("one epoch over: %v", err)
	}
	if err := CheckSize(g, map[string]float64{"hidden": 1e300, "epochs": 1}); err == nil || !strings.Contains(err.Error(), "more than 8 EiB") {
		t.Errorf("hidden 1e300: %v", err)
	}
}

// A sweep point whose generated graph has no edges is refused: its
// homophily is undefined and its runs would record noise.
func TestSweepPointWithoutEdges(t *testing.T) {
	spec := SweepSpec{Base: BaseCSBM, Seed: 1}
	_, _, err := sweepGraph(t.Context(), spec, nil, SweepPoint{H: 0.5, Degree: 1e-6}, 1)
	if err == nil || !strings.Contains(err.Error(), "has no edges") {
		t.Errorf("degree 1e-6: %v", err)
	}
	if _, _, err := sweepGraph(t.Context(), spec, nil, SweepPoint{H: 0.5, Degree: 5}, 1); err != nil {
		t.Errorf("degree 5: %v", err)
	}
}
