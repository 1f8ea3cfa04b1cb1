package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestFAEdgesByHand(t *testing.T) {
	// 0 -> 1, 2 -> 1, 1 -> 1 (self loop, dropped), 1 -> 0; node 2 has no in-edge.
	m, err := nn.FAEdges(3, []int32{0, 2, 1, 1}, []int32{1, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 3 {
		t.Fatalf("NNZ = %d, want 3 (self loop dropped)", m.NNZ())
	}
	want := []float64{1, 1 / math.Sqrt(2), 1} // d = (1, 2, 0 -> clamped to 1)
	for v, w := range want {
		if math.Abs(float64(m.RowScale[v])-w) > 1e-7 || m.RowScale[v] != m.ColScale[v] {
			t.Fatalf("scale[%d] = %v / %v, want %v", v, m.RowScale[v], m.ColScale[v], w)
		}
	}
	// Â[1, 0] = 1/sqrt(2·1).
	if d := m.Dense(); math.Abs(d[1*3+0]-1/math.Sqrt(2)) > 1e-7 {
		t.Fatalf("A[1,0] = %v, want %v", d[3], 1/math.Sqrt(2))
	}
	if _, err := nn.FAEdges(2, []int32{0, 5}, []int32{1, 0}); err == nil {
		t.Fatal("edge outside the graph accepted")
	}
}

func TestFAConv(t *testing.T) { nntest.BothLayouts(t, testFAConv) }

func testFAConv(t *testing.T) {
	g := nntest.TinyGraph(t).ToUndirected()
	in := nntest.Float64Inputs(t, g, true)
	if err := nn.AddFAEdges(in, g); err != nil {
		t.Fatal(err)
	}
	const hid = 3
	hIn := nntest.RandRounded(rand.New(rand.NewPCG(1, 2)), g.NumNodes(), hid)
	in.SetFloat("h", nntest.Flat32(hIn), g.NumNodes(), hid)
	hr := nntest.NewHarness(t, in, 5, func(scope *model.Scope, n *nn.Nodes) *Node {
		return nn.FAConv(scope.In("fa"), n.Get("h"), sparse.FromNodes(n, nn.InputFAEdges), nn.FAConfig{Dropout: 0.5}, false)
	})
	got, _ := hr.Forward()
	w, b := hr.VarValues("/fa/gate/weight"), hr.VarValues("/fa/gate/bias")
	nntest.AssertClose(t, "FAConv", got, nntest.Flat(nntest.FAReference(g, hIn, w, b[0])), 1e-12)
	hr.CheckGradients(rand.New(rand.NewPCG(3, 4)), 1e-5)
}
