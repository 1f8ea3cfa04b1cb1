package theory

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// DefaultProjectionDim is the width of the random projection applied to wide
// features before the empirical probe (Johnson-Lindenstrauss: 64 Gaussian
// directions keep pairwise distances within ~25 % and make the probe fast on
// 2,000+ sparse bag-of-words columns).
const DefaultProjectionDim = 64

// Matrix is a dense row-major float64 matrix.
type Matrix struct {
	Rows, Cols int
	Data       []float64
}

// NewMatrix returns a zero rows x cols matrix.
func NewMatrix(rows, cols int) Matrix {
	return Matrix{Rows: rows, Cols: cols, Data: make([]float64, rows*cols)}
}

// Row returns a view of row r.
func (m Matrix) Row(r int) []float64 { return m.Data[r*m.Cols : (r+1)*m.Cols] }

// ProjectFeatures returns f times a fixed F x dim Gaussian matrix with
// entries N(0, 1/dim), drawn from seed, visiting only non-zero entries. With
// dim <= 0 or dim >= F the features are returned unprojected (as float64).
func ProjectFeatures(f *graph.Features, dim int, seed uint64) (Matrix, error) {
	if f == nil {
		return Matrix{}, fmt.Errorf("theory: ProjectFeatures: nil features")
	}
	n, cols := f.NumRows(), f.NumCols()
	if dim <= 0 || dim >= cols {
		out := NewMatrix(n, cols)
		for r := range n {
			cs, vs := f.SparseRow(r)
			row := out.Row(r)
			for e, c := range cs {
				row[c] = float64(vs[e])
			}
		}
		return out, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	proj := NewMatrix(cols, dim)
	scale := 1 / math.Sqrt(float64(dim))
	for i := range proj.Data {
		proj.Data[i] = rng.NormFloat64() * scale
	}
	out := NewMatrix(n, dim)
	for r := range n {
		cs, vs := f.SparseRow(r)
		row := out.Row(r)
		for e, c := range cs {
			v := float64(vs[e])
			for t, w := range proj.Row(int(c)) {
				row[t] += v * w
			}
		}
	}
	return out, nil
}

// MeanAggregate returns the GCN average z_v = mean of x over v's
// in-neighbours (edges as stored, duplicates and self loops included); with
// self, x_v joins the average once more (the row-normalised A+I). A node with
// nothing to average gets zeros.
func MeanAggregate(g *graph.Graph, x Matrix, self bool) (Matrix, error) {
	if x.Rows != g.NumNodes() {
		return Matrix{}, fmt.Errorf("theory: MeanAggregate: %d feature rows for %d nodes", x.Rows, g.NumNodes())
	}
	in := g.InCSR()
	out := NewMatrix(x.Rows, x.Cols)
	for v := range x.Rows {
		row := out.Row(v)
		nb := in.Row(v)
		cnt := len(nb)
		for _, u := range nb {
			addTo(row, x.Row(int(u)))
		}
		if self {
			addTo(row, x.Row(v))
			cnt++
		}
		if cnt > 0 {
			scaleBy(row, 1/float64(cnt))
		}
	}
	return out, nil
}

// LabelWiseAggregate returns CONCAT(x_v, a_{v,0}, ..., a_{v,C-1}) (the
// paper's Eq. 3 input), where a_{v,k} is the mean of x over v's in-neighbours
// u with labels[u] = k and zeros when there is none. Neighbours with a label
// outside [0, numClasses) (e.g. graph.Unlabeled) are skipped.
func LabelWiseAggregate(g *graph.Graph, x Matrix, labels []int32, numClasses int) (Matrix, error) {
	n := g.NumNodes()
	if x.Rows != n {
		return Matrix{}, fmt.Errorf("theory: LabelWiseAggregate: %d feature rows for %d nodes", x.Rows, n)
	}
	if len(labels) != n {
		return Matrix{}, fmt.Errorf("theory: LabelWiseAggregate: %d labels for %d nodes", len(labels), n)
	}
	if numClasses < 1 {
		return Matrix{}, fmt.Errorf("theory: LabelWiseAggregate: numClasses = %d, need >= 1", numClasses)
	}
	p := x.Cols
	in := g.InCSR()
	out := NewMatrix(n, p*(numClasses+1))
	counts := make([]int, numClasses)
	for v := range n {
		row := out.Row(v)
		copy(row[:p], x.Row(v))
		clear(counts)
		for _, u := range in.Row(v) {
			k := int(labels[u])
			if k < 0 || k >= numClasses {
				continue
			}
			counts[k]++
			addTo(row[p*(k+1):p*(k+2)], x.Row(int(u)))
		}
		for k, c := range counts {
			if c > 1 {
				scaleBy(row[p*(k+1):p*(k+2)], 1/float64(c))
			}
		}
	}
	return out, nil
}

func addTo(dst, src []float64) {
	for i, v := range src {
		dst[i] += v
	}
}

func scaleBy(x []float64, s float64) {
	for i := range x {
		x[i] *= s
	}
}

// Fisher are per-dimension Fisher ratios of a representation.
type Fisher struct {
	// Pair[i][j] is the mean over dimensions of
	// (m_i - m_j)^2 / ((v_i + v_j)/2) for classes i and j (0 on the diagonal,
	// NaN when a class has fewer than 2 nodes). Dimensions with pooled
	// variance below 1e-12 (constant columns) are skipped.
	Pair [][]float64
	// Mean is the mean of Pair over the pairs i < j that are defined.
	Mean float64
	// Blocks[b] is the mean per-dimension ratio over all pairs i < j and the
	// dimensions of block b (when a block size was given), e.g. the self and
	// a_{.,k} blocks of the label-wise input.
	Blocks []float64
}

// FisherRatios computes per-dimension Fisher ratios of x over the given nodes
// (nil: every node with a label in [0, numClasses)). blockSize > 0 also
// averages per block of that many consecutive columns.
func FisherRatios(x Matrix, labels []int32, numClasses int, nodes []int32, blockSize int) (Fisher, error) {
	if len(labels) != x.Rows {
		return Fisher{}, fmt.Errorf("theory: FisherRatios: %d labels for %d rows", len(labels), x.Rows)
	}
	if blockSize > 0 && x.Cols%blockSize != 0 {
		return Fisher{}, fmt.Errorf("theory: FisherRatios: block size %d does not divide %d columns", blockSize, x.Cols)
	}
	if nodes == nil {
		for v, y := range labels {
			if y >= 0 && int(y) < numClasses {
				nodes = append(nodes, int32(v))
			}
		}
	}
	c, d := numClasses, x.Cols
	cnt := make([]float64, c)
	mean := NewMatrix(c, d)
	sq := NewMatrix(c, d)
	inRange := func(v int32) (int, bool) {
		y := int(labels[v])
		return y, y >= 0 && y < c
	}
	// Two passes, means then centred squares: sum x^2 - n m^2 loses the
	// variance of columns whose mean is large against their spread.
	for _, v := range nodes {
		if y, ok := inRange(v); ok {
			cnt[y]++
			addTo(mean.Row(y), x.Row(int(v)))
		}
	}
	for y := range c {
		if cnt[y] > 0 {
			scaleBy(mean.Row(y), 1/cnt[y])
		}
	}
	for _, v := range nodes {
		if y, ok := inRange(v); ok {
			m, s := mean.Row(y), sq.Row(y)
			for t, val := range x.Row(int(v)) {
				s[t] += (val - m[t]) * (val - m[t])
			}
		}
	}
	for y := range c {
		if cnt[y] >= 2 {
			scaleBy(sq.Row(y), 1/(cnt[y]-1)) // unbiased variance
		}
	}
	nb := 0
	if blockSize > 0 {
		nb = d / blockSize
	}
	f := Fisher{Pair: make([][]float64, c), Blocks: make([]float64, nb)}
	blockSum, blockN := make([]float64, nb), make([]float64, nb)
	for i := range c {
		f.Pair[i] = make([]float64, c)
	}
	var total float64
	var pairs int
	for i := range c {
		for j := i + 1; j < c; j++ {
			if cnt[i] < 2 || cnt[j] < 2 {
				f.Pair[i][j], f.Pair[j][i] = math.NaN(), math.NaN()
				continue
			}
			mi, mj, vi, vj := mean.Row(i), mean.Row(j), sq.Row(i), sq.Row(j)
			var sum float64
			var dims int
			for t := range d {
				pooled := (vi[t] + vj[t]) / 2
				if pooled < 1e-12 {
					continue
				}
				r := (mi[t] - mj[t]) * (mi[t] - mj[t]) / pooled
				sum += r
				dims++
				if nb > 0 {
					blockSum[t/blockSize] += r
					blockN[t/blockSize]++
				}
			}
			r := 0.0
			if dims > 0 {
				r = sum / float64(dims)
			}
			f.Pair[i][j], f.Pair[j][i] = r, r
			total += r
			pairs++
		}
	}
	f.Mean = math.NaN()
	if pairs > 0 {
		f.Mean = total / float64(pairs)
	}
	for b := range nb {
		f.Blocks[b] = math.NaN()
		if blockN[b] > 0 {
			f.Blocks[b] = blockSum[b] / blockN[b]
		}
	}
	return f, nil
}
