package labelwise

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// OfficialAdjacency is f_G's adjacency as the authors' code builds it
// (GCNII's sys_normalized_adjacency over to_scipy_sparse_matrix(edge_index)),
// written for the graph the models run on (see modelGraph), whose row v
// aggregates v's in-neighbours:
//
//	Â = D^-1/2 (A + I) D^-1/2,   A[v, u] = number of edges u -> v,  D = rowsum(A + I)
//
// with the identity added on top of existing self loops (weight 2 there) and
// duplicate edges counted, unlike PyG's gcn_norm (nn.GCNNormalized).
func OfficialAdjacency(g *graph.Graph) (*sparse.SparseMatrix, error) {
	n := g.NumNodes()
	src, dst := g.Src(), g.Dst()
	rows := make([]int32, 0, len(src)+n)
	cols := make([]int32, 0, len(src)+n)
	deg := make([]float64, n)
	for e := range src {
		rows, cols = append(rows, dst[e]), append(cols, src[e])
		deg[dst[e]]++
	}
	for v := range n {
		rows, cols = append(rows, int32(v)), append(cols, int32(v))
		deg[v]++
	}
	m, err := sparse.NewSparseMatrix(n, n, rows, cols, nil)
	if err != nil {
		return nil, fmt.Errorf("lwgcn: f_G adjacency of %q: %w", g.Name(), err)
	}
	dinv := make([]float32, n)
	for v, d := range deg {
		dinv[v] = float32(1 / math.Sqrt(d))
	}
	m.RowScale, m.ColScale = dinv, dinv
	return m, nil
}

// modelGraph returns the graph whose in-neighbours the models aggregate:
// the reverse of g for DirectionOfficial, g itself otherwise.
func modelGraph(g *graph.Graph, d Direction) *graph.Graph {
	if d == DirectionOfficial {
		return g.Reverse()
	}
	return g
}

// PseudoLabels turns f_P's log-probabilities [N, C] (row-major) into pseudo
// labels: the argmax of every row (first on ties, like torch.max), with the
// true label kept for the training nodes.
func PseudoLabels(logp []float32, numClasses int, labels []int32, train []int32) ([]int32, error) {
	n := len(labels)
	if len(logp) != n*numClasses {
		return nil, fmt.Errorf("lwgcn: %d log-probabilities for %d nodes x %d classes", len(logp), n, numClasses)
	}
	out := make([]int32, n)
	for v := range n {
		row := logp[v*numClasses : (v+1)*numClasses]
		best := 0
		for k := 1; k < numClasses; k++ {
			if row[k] > row[best] {
				best = k
			}
		}
		out[v] = int32(best)
	}
	for _, v := range train {
		if labels[v] < 0 {
			return nil, fmt.Errorf("lwgcn: training node %d has no label", v)
		}
		out[v] = labels[v]
	}
	return out, nil
}

// Accuracy is the fraction of nodes in idx whose pseudo label equals the
// true label (nodes without a label are skipped); NaN when none is labeled.
func Accuracy(pseudo, labels []int32, idx []int32) float64 {
	hit, n := 0, 0
	for _, v := range idx {
		if labels[v] < 0 {
			continue
		}
		n++
		if pseudo[v] == labels[v] {
			hit++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(hit) / float64(n)
}
