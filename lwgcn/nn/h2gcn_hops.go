package nn

import (
	"fmt"
	"math"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// undirectedCSR returns the symmetric binary adjacency of the edges (u, v)
// and (v, u) for every edge, duplicates removed, as CSR rows sorted by
// column; self loops are kept (once) only when keepLoops is set.
func undirectedCSR(numNodes int, src, dst []int32, keepLoops bool) (offsets, cols []int32, err error) {
	if len(src) != len(dst) {
		return nil, nil, fmt.Errorf("nn: %d edge sources for %d destinations", len(src), len(dst))
	}
	rows := make([][]int32, numNodes)
	for e := range src {
		u, v := src[e], dst[e]
		if u < 0 || int(u) >= numNodes || v < 0 || int(v) >= numNodes {
			return nil, nil, fmt.Errorf("nn: edge %d (%d -> %d) outside %d nodes", e, u, v, numNodes)
		}
		if u == v {
			if keepLoops {
				rows[u] = append(rows[u], u)
			}
			continue
		}
		rows[u] = append(rows[u], v)
		rows[v] = append(rows[v], u)
	}
	offsets = make([]int32, numNodes+1)
	for v, r := range rows {
		slices.Sort(r)
		r = slices.Compact(r)
		rows[v] = r
		offsets[v+1] = offsets[v] + int32(len(r))
	}
	cols = make([]int32, 0, offsets[numNodes])
	for _, r := range rows {
		cols = append(cols, r...)
	}
	return offsets, cols, nil
}

// H2GCNNeighborhoods returns the two structures of H2GCN (Zhu et al.,
// NeurIPS 2020), as the official code builds them (GemsLab/H2GCN,
// TransformSPAdj.nhoodSplit on the undirected graph without self loops,
// then symmetric normalisation):
//
//	A1[v, u] = 1 when u and v are adjacent (u ≠ v)
//	A2[v, u] = 1 when u is at distance exactly 2 from v (not v, not a neighbour)
//	Âk = Dk^-1/2 Ak Dk^-1/2,  Dk the row sums of Ak (rows of isolated nodes stay empty)
//
// Edges are symmetrised and deduplicated first. Computing A2 costs
// Σ_u deg(u)² set operations on the host (Squirrel: about 8.4M entries,
// under a second); its size is the number of distance-2 pairs, which on
// dense heterophilic graphs is a large fraction of N² (Chameleon 23%,
// Squirrel 31%), hence sparse.SetAuto.
func H2GCNNeighborhoods(numNodes int, src, dst []int32) (a1, a2 *sparse.SparseMatrix, err error) {
	off, cols, err := undirectedCSR(numNodes, src, dst, false)
	if err != nil {
		return nil, nil, err
	}
	r1, c1 := make([]int32, 0, len(cols)), make([]int32, 0, len(cols))
	var r2, c2 []int32
	mark := make([]int32, numNodes) // mark[w] == v+1: w is v, a neighbour of v, or already in v's 2-hop set
	for v := range numNodes {
		tag := int32(v + 1)
		mark[v] = tag
		nb := cols[off[v]:off[v+1]]
		for _, u := range nb {
			mark[u] = tag
			r1, c1 = append(r1, int32(v)), append(c1, u)
		}
		for _, u := range nb {
			for _, w := range cols[off[u]:off[u+1]] {
				if mark[w] != tag {
					mark[w] = tag
					r2, c2 = append(r2, int32(v)), append(c2, w)
				}
			}
		}
	}
	if a1, err = symNormalized(numNodes, r1, c1); err != nil {
		return nil, nil, err
	}
	if a2, err = symNormalized(numNodes, r2, c2); err != nil {
		return nil, nil, err
	}
	return a1, a2, nil
}

// symNormalized is D^-1/2 A D^-1/2 for the binary symmetric A with the
// given entries; D are the row counts (isolated nodes: scale 0).
func symNormalized(numNodes int, rows, cols []int32) (*sparse.SparseMatrix, error) {
	m, err := sparse.NewSparseMatrix(numNodes, numNodes, rows, cols, nil)
	if err != nil {
		return nil, err
	}
	deg := make([]int, numNodes)
	for _, r := range rows {
		deg[r]++
	}
	s := make([]float32, numNodes)
	for v, d := range deg {
		if d > 0 {
			s[v] = float32(1 / math.Sqrt(float64(d)))
		}
	}
	m.RowScale, m.ColScale = s, s
	return m, nil
}
