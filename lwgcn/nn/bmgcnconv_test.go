package nn_test

import (
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestBMGCNAdjacencyByHand(t *testing.T) {
	// 0 -> 1 twice, 1 -> 0, 2 -> 2 (self loop), 3 -> 1; node 4 isolated.
	src, dst := []int32{0, 0, 1, 2, 3}, []int32{1, 1, 0, 2, 1}
	m, w, err := nn.BMGCNAdjacency(5, src, dst, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	if m.Vals != nil || m.RowScale != nil || m.ColScale != nil {
		t.Fatal("the pattern carries values")
	}
	m.Vals = w // the weights follow the pattern's entry order
	want := make([]float64, 25)
	set := func(r, c int, v float64) { want[r*5+c] = v }
	set(0, 1, 1)
	set(1, 0, 1)
	set(1, 3, 1)
	set(3, 1, 1)
	set(0, 0, 1.5)
	set(1, 1, 1.5)
	set(2, 2, 2.5) // existing self loop + 1.5
	set(3, 3, 1.5)
	set(4, 4, 1.5)
	nntest.AssertClose(t, "A", m.Dense(), want, 0)
	// Without added self loops only the existing one is on the diagonal, and
	// node 4 has no entry at all.
	m0, _, err := nn.BMGCNAdjacency(5, src, dst, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m0.NNZ() != 5 {
		t.Fatalf("NNZ = %d, want 5 (4 symmetric edges + one self loop)", m0.NNZ())
	}
	if _, _, err := nn.BMGCNAdjacency(5, src, dst, -1); err == nil {
		t.Fatal("negative self-loop weight accepted")
	}
	if _, _, err := nn.BMGCNAdjacency(2, []int32{0}, []int32{7}, 0); err == nil {
		t.Fatal("edge outside the graph accepted")
	}
}

// TestBlockMatrixCountsEdges: with one-hot labels on every node, H[c, c']
// is the fraction of class-c nodes' edge ends that reach class c'.
func TestBlockMatrixCountsEdges(t *testing.T) {
	// Path 0 - 1 - 2 - 3 with classes 0, 0, 1, 1 (undirected, no loops).
	in := nn.NewInputs()
	m, w, err := nn.BMGCNAdjacency(4, []int32{0, 1, 2}, []int32{1, 2, 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	sparse.Set(in, nn.InputBMGCNAdj, m)
	in.SetFloat(nn.InputBMGCNWeights, w, len(w))
	in.SetFloat("y", []float32{1, 0, 1, 0, 0, 1, 0, 1}, 4, 2)
	exec := model.MustNewExec(nntest.Backend(t), model.NewStore(), func(scope *model.Scope, gr *Graph, p []*Node) *Node {
		n := in.Nodes(p)
		adj := sparse.FromNodes(n, nn.InputBMGCNAdj)
		return nn.BlockMatrix(n.Get("y"), adj, n.Get(nn.InputBMGCNWeights))
	})
	got := nntest.Float64s(exec.MustExec(in.Tensors()...)[0])
	// Class 0: edge ends 0-1, 1-0, 1-2 -> 2 to class 0, 1 to class 1.
	nntest.AssertClose(t, "H", got, []float64{2.0 / 3, 1.0 / 3, 1.0 / 3, 2.0 / 3}, 1e-6)
}
