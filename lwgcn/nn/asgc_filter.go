package nn

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// ASGCBlock is the number of features filtered together (one block of
// columns propagated by Â at a time, per worker).
const ASGCBlock = 16

// ASGCRankTolerance: a Krylov column whose component orthogonal to the
// previous ones is smaller than this fraction of its norm is dropped as
// numerically dependent (the filtered feature is the projection onto the
// span, which does not depend on how a dependent column is weighted).
const ASGCRankTolerance = 1e-12

// ASGCFiltered is the result of ASGCFilter.
type ASGCFiltered struct {
	// NumNodes, NumFeatures and K describe the shapes.
	NumNodes, NumFeatures, K int
	// Features [NumNodes, NumFeatures] row-major: the filtered features.
	Features []float32
	// Coeffs [NumFeatures, K+1] row-major: per feature, the coefficients β
	// of x, Âx, ..., Â^K x (a least-squares solution; 0 for columns dropped
	// as dependent).
	Coeffs []float64
}

// ASGCFilter is the feature filter of ASGC (Chanpuriya & Musco, NeurIPS
// 2022, "Simplified Graph Convolution with Heterophily"), computed on the
// host as in the official code (feat_filter_adaptive in
// schariya/adaptive-simple-convolution). For each feature column x:
//
//	T = [x, Âx, ..., Â^K x]                                (N x (K+1) Krylov matrix)
//	β = argmin_β ‖Tβ - x‖² + N·reg·β_0²                    (ridge on the coefficient of x only)
//	filtered feature = Tβ
//
// Without the ridge term β = e_0 (the raw feature) would be optimal; the
// penalty on β_0 makes the filter reconstruct x from its propagations,
// adapting the polynomial filter to each feature's (homophilous or
// heterophilous) structure. Â = D^-1/2 A D^-1/2 with A the symmetrised
// binary adjacency keeping the graph's own self loops (no self loops are
// added, unlike SGC), D its row sums; isolated nodes get a self loop, as
// in the official code.
//
// The least-squares problem is solved per feature by modified Gram-Schmidt
// with re-orthogonalisation on the (N+1) x (K+1) matrix [T; sqrt(N·reg)
// e_0ᵀ]: the filtered feature is the first N entries of the projection of
// [x; 0] onto its column space (unique even when T is rank deficient).
//
// Cost: K sparse products of Â with N x F (K·nnz(Â)·F multiply-adds) and
// about 4·F·N·(K+1)² flops for the least squares; memory: the N x F output
// plus, per worker, ASGCBlock·N·(K+1) float64. Workers run in parallel
// (workers <= 0: GOMAXPROCS).
func ASGCFilter(numNodes int, src, dst []int32, x *graph.Features, k int, reg float64, workers int) (*ASGCFiltered, error) {
	switch {
	case k < 0:
		return nil, fmt.Errorf("nn: ASGC hops K must be >= 0, got %d", k)
	case reg < 0 || math.IsNaN(reg) || math.IsInf(reg, 0):
		return nil, fmt.Errorf("nn: ASGC regularisation must be finite and >= 0, got %v", reg)
	case x == nil:
		return nil, fmt.Errorf("nn: ASGC needs node features")
	case x.NumRows() != numNodes:
		return nil, fmt.Errorf("nn: ASGC features have %d rows for %d nodes", x.NumRows(), numNodes)
	}
	off, cols, err := undirectedCSR(numNodes, src, dst, true)
	if err != nil {
		return nil, err
	}
	// Isolated nodes get a self loop (degree 1).
	scale := make([]float64, numNodes)
	loop := make([]bool, numNodes)
	for v := range numNodes {
		d := int(off[v+1] - off[v])
		if d == 0 {
			d, loop[v] = 1, true
		}
		scale[v] = 1 / math.Sqrt(float64(d))
	}
	f := x.NumCols()
	data := x.Data()
	if data == nil {
		data = x.ToDense().Data()
	}
	res := &ASGCFiltered{NumNodes: numNodes, NumFeatures: f, K: k,
		Features: make([]float32, numNodes*f), Coeffs: make([]float64, f*(k+1))}
	ridge := math.Sqrt(float64(numNodes) * reg)
	numBlocks := (f + ASGCBlock - 1) / ASGCBlock
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, numBlocks))
	blocks := make(chan int, numBlocks)
	for b := range numBlocks {
		blocks <- b
	}
	close(blocks)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newASGCWorker(numNodes, k)
			for b := range blocks {
				lo, hi := b*ASGCBlock, min(f, (b+1)*ASGCBlock)
				w.block(res, data, off, cols, scale, loop, lo, hi, ridge)
			}
		}()
	}
	wg.Wait()
	return res, nil
}

// asgcWorker holds one worker's scratch space.
type asgcWorker struct {
	n, k  int
	props [][]float64 // K+1 blocks [N, ASGCBlock]
	q     [][]float64 // orthonormal columns, length N+1
	a     []float64   // current column, length N+1
	r     []float64   // (K+1) x (K+1) upper triangle of the QR factor
}

func newASGCWorker(n, k int) *asgcWorker {
	w := &asgcWorker{n: n, k: k, props: make([][]float64, k+1), q: make([][]float64, k+1),
		a: make([]float64, n+1), r: make([]float64, (k+1)*(k+1))}
	for i := range w.props {
		w.props[i] = make([]float64, n*ASGCBlock)
		w.q[i] = make([]float64, n+1)
	}
	return w
}

// block filters features lo..hi-1.
func (w *asgcWorker) block(res *ASGCFiltered, data []float32, off, cols []int32, scale []float64, loop []bool,
	lo, hi int, ridge float64) {
	n, k, f := w.n, w.k, res.NumFeatures
	width := hi - lo
	p0 := w.props[0]
	for v := range n {
		for j := range width {
			p0[v*ASGCBlock+j] = float64(data[v*f+lo+j])
		}
	}
	for step := 1; step <= k; step++ {
		prev, cur := w.props[step-1], w.props[step]
		for v := range n {
			out := cur[v*ASGCBlock : v*ASGCBlock+width]
			clear(out)
			sv := scale[v]
			if loop[v] {
				for j := range width {
					out[j] = sv * sv * prev[v*ASGCBlock+j]
				}
				continue
			}
			for _, u := range cols[off[v]:off[v+1]] {
				c := sv * scale[u]
				in := prev[int(u)*ASGCBlock : int(u)*ASGCBlock+width]
				for j, x := range in {
					out[j] += c * x
				}
			}
		}
	}
	for j := range width {
		w.solve(res, lo+j, j, ridge)
	}
}

// solve fits feature fi (column j of the current block).
func (w *asgcWorker) solve(res *ASGCFiltered, fi, j int, ridge float64) {
	n, k := w.n, w.k
	kept := make([]int, 0, k+1)
	clear(w.r)
	for c := 0; c <= k; c++ {
		a := w.a
		src := w.props[c]
		for v := range n {
			a[v] = src[v*ASGCBlock+j]
		}
		a[n] = 0
		if c == 0 {
			a[n] = ridge
		}
		norm0 := asgcNorm(a)
		if norm0 == 0 {
			continue
		}
		for range 2 { // Gram-Schmidt twice: orthogonal to working precision
			for _, i := range kept {
				d := asgcDot(w.q[i], a)
				w.r[i*(k+1)+c] += d
				asgcAxpy(-d, w.q[i], a)
			}
		}
		nr := asgcNorm(a)
		if nr <= ASGCRankTolerance*norm0 {
			continue
		}
		w.r[c*(k+1)+c] = nr
		q := w.q[c]
		for v := range a {
			q[v] = a[v] / nr
		}
		kept = append(kept, c)
	}
	// b = [x; 0]: the projection Σ_i (q_i·b) q_i; coefficients from R β = Qᵀb.
	x := w.props[0]
	qb := make([]float64, k+1)
	for _, i := range kept {
		s := 0.0
		for v := range n {
			s += w.q[i][v] * x[v*ASGCBlock+j]
		}
		qb[i] = s
	}
	f := res.NumFeatures
	for v := range n {
		s := 0.0
		for _, i := range kept {
			s += qb[i] * w.q[i][v]
		}
		res.Features[v*f+fi] = float32(s)
	}
	beta := res.Coeffs[fi*(k+1) : (fi+1)*(k+1)]
	for t := len(kept) - 1; t >= 0; t-- {
		i := kept[t]
		s := qb[i]
		for _, l := range kept[t+1:] {
			s -= w.r[i*(k+1)+l] * beta[l]
		}
		beta[i] = s / w.r[i*(k+1)+i]
	}
}

func asgcDot(a, b []float64) float64 {
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func asgcAxpy(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

func asgcNorm(a []float64) float64 { return math.Sqrt(asgcDot(a, a)) }
