package sparse

import (
	"fmt"
	"math"
)

// AdjNorm says how BinaryAdjacency normalises; D is the diagonal of row sums.
type AdjNorm int

const (
	// NormNone keeps the 0/1 (and self-loop 2) entries.
	NormNone AdjNorm = iota
	// NormRow is D⁻¹ A (rows sum to 1).
	NormRow
	// NormSym is D^-1/2 A D^-1/2 with D the row sums, as scipy code writes
	// it (for an asymmetric A the column scale is the column node's row sum).
	NormSym
)

// BinaryAdjacency returns the matrix scipy/networkx-based reference code
// builds from an edge list: A[rows[e], cols[e]] = 1 for every distinct pair
// (duplicates collapse, self loops of the data stay as 1s), plus the
// identity when plusIdentity is set (A + I: a node with a self loop in the
// data gets a diagonal 2, as adj + sp.eye does), normalised by norm. Rows
// with no entry get a zero scale (scipy's inf -> 0).
//
// Which end is the row decides the direction of aggregation: row r of the
// product A·H sums over the columns of row r. LINKX uses A[src, dst] of the
// symmetrised edges, GloGNN++ the row-normalised symmetric A + I, SimP-GCN
// D^-1/2 (A + I) D^-1/2 of the directed rows as given (see each model).
func BinaryAdjacency(n int, rows, cols []int32, plusIdentity bool, norm AdjNorm) (*SparseMatrix, error) {
	if len(rows) != len(cols) {
		return nil, fmt.Errorf("nn: adjacency with %d rows and %d columns", len(rows), len(cols))
	}
	seen := make(map[int64]bool, len(rows))
	r := make([]int32, 0, len(rows)+n)
	c := make([]int32, 0, len(rows)+n)
	var vals []float32
	loop := make([]bool, n)
	for e := range rows {
		u, v := rows[e], cols[e]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return nil, fmt.Errorf("nn: adjacency entry %d (%d, %d) outside %d nodes", e, u, v, n)
		}
		key := int64(u)*int64(n) + int64(v)
		if seen[key] {
			continue
		}
		seen[key] = true
		if u == v {
			loop[u] = true
			if plusIdentity {
				continue // added below with the identity
			}
		}
		r, c = append(r, u), append(c, v)
	}
	sums := make([]float64, n)
	for i := range r {
		sums[r[i]]++
	}
	if plusIdentity {
		vals = make([]float32, len(r), len(r)+n)
		for i := range vals {
			vals[i] = 1
		}
		for v := range n {
			w := float32(1)
			if loop[v] {
				w = 2
			}
			r, c, vals = append(r, int32(v)), append(c, int32(v)), append(vals, w)
			sums[v] += float64(w)
		}
	}
	m, err := NewSparseMatrix(n, n, r, c, vals)
	if err != nil {
		return nil, err
	}
	if norm == NormNone {
		return m, nil
	}
	scale := make([]float32, n)
	for v, s := range sums {
		switch {
		case s == 0:
		case norm == NormRow:
			scale[v] = float32(1 / s)
		default:
			scale[v] = float32(1 / math.Sqrt(s))
		}
	}
	m.RowScale = MulScales(m.RowScale, scale)
	if norm == NormSym {
		m.ColScale = MulScales(m.ColScale, scale)
	}
	return m, nil
}

// MulScales multiplies two optional per-row scales (nil means ones).
func MulScales(a, b []float32) []float32 {
	if a == nil {
		return b
	}
	out := make([]float32, len(a))
	for i := range a {
		out[i] = a[i] * b[i]
	}
	return out
}
