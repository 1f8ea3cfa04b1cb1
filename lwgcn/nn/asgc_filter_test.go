package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// b4ASGCAdj builds the official ASGC adjacency densely: symmetrised binary
// edges, the graph's own self loops kept, isolated nodes given a loop,
// D^-1/2 A D^-1/2.
func b4ASGCAdj(n int, src, dst []int32) [][]float64 {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
	}
	for e := range src {
		a[src[e]][dst[e]], a[dst[e]][src[e]] = 1, 1
	}
	deg := make([]float64, n)
	for i := range a {
		for _, v := range a[i] {
			deg[i] += v
		}
		if deg[i] == 0 {
			a[i][i], deg[i] = 1, 1
		}
	}
	for i := range a {
		for j := range a[i] {
			a[i][j] /= math.Sqrt(deg[i] * deg[j])
		}
	}
	return a
}

// b4Solve solves the square system m·x = y by Gaussian elimination with
// partial pivoting.
func b4Solve(m [][]float64, y []float64) []float64 {
	n := len(y)
	a := make([][]float64, n)
	for i := range a {
		a[i] = append(append([]float64(nil), m[i]...), y[i])
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := a[r][n]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x
}

func TestASGCFilterMatchesNormalEquations(t *testing.T) {
	// Path 0-1-2-3, node 4 with only a self loop, node 5 isolated; feature 2 is zero.
	const n, f, k, reg = 6, 3, 2, 0.1
	src, dst := []int32{0, 1, 2, 4}, []int32{1, 2, 3, 4}
	x := []float32{
		1, 0.5, 0,
		0, 2, 0,
		3, -1, 0,
		0, 1, 0,
		2, 0, 0,
		1, 1, 0,
	}
	g := nntest.EdgeGraph(t, n, src, dst, x, f, []int32{0, 1, 0, 1, 0, 1})
	res, err := nn.ASGCFilter(n, g.Src(), g.Dst(), g.Features(), k, reg, 1)
	if err != nil {
		t.Fatal(err)
	}
	a := b4ASGCAdj(n, src, dst)
	for c := range f {
		col := make([][]float64, n)
		for v := range n {
			col[v] = []float64{float64(x[v*f+c])}
		}
		tcols := [][][]float64{col, nntest.DenseMatMul(a, col), nntest.DenseMatMul(a, nntest.DenseMatMul(a, col))}
		// Normal equations of ‖Tβ - x‖² + n·reg·β0².
		ata := make([][]float64, k+1)
		atb := make([]float64, k+1)
		for i := range ata {
			ata[i] = make([]float64, k+1)
			for j := range ata[i] {
				for v := range n {
					ata[i][j] += tcols[i][v][0] * tcols[j][v][0]
				}
			}
			for v := range n {
				atb[i] += tcols[i][v][0] * col[v][0]
			}
		}
		ata[0][0] += n * reg
		gotBeta := res.Coeffs[c*(k+1) : (c+1)*(k+1)]
		var wantF []float64
		if c == 2 { // zero feature: zero filter output
			nntest.AssertClose(t, "β of a zero feature", gotBeta, []float64{0, 0, 0}, 0)
			wantF = make([]float64, n)
		} else {
			beta := b4Solve(ata, atb)
			nntest.AssertClose(t, "β", gotBeta, beta, 1e-9)
			for v := range n {
				s := 0.0
				for i := range k + 1 {
					s += beta[i] * tcols[i][v][0]
				}
				wantF = append(wantF, s)
			}
		}
		gotF := make([]float64, n)
		for v := range n {
			gotF[v] = float64(res.Features[v*f+c])
		}
		nntest.AssertClose(t, "filtered feature", gotF, wantF, 1e-6)
	}
}

func TestASGCFilterLimits(t *testing.T) {
	g := nntest.TinyGraph(t)
	x := nntest.DenseX(g)
	// reg = 0: β = e_0 reproduces x exactly.
	res, err := nn.ASGCFilter(5, g.Src(), g.Dst(), g.Features(), 3, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for v := range 5 {
		for c := range 4 {
			if math.Abs(float64(res.Features[v*4+c])-x[v][c]) > 1e-6 {
				t.Fatalf("reg 0: filtered[%d,%d] = %v, want x = %v", v, c, res.Features[v*4+c], x[v][c])
			}
		}
	}
	// Constant feature on a 2-regular graph (4-cycle): Âx = x, the Krylov
	// columns coincide; optimum: β_0 = 0, Σβ = 1, filtered = x.
	c4 := nntest.EdgeGraph(t, 4, []int32{0, 1, 2, 3}, []int32{1, 2, 3, 0}, []float32{2, 2, 2, 2}, 1, []int32{0, 1, 0, 1})
	res, err = nn.ASGCFilter(4, c4.Src(), c4.Dst(), c4.Features(), 3, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, b := range res.Coeffs {
		sum += b
	}
	if math.Abs(res.Coeffs[0]) > 1e-12 || math.Abs(sum-1) > 1e-12 {
		t.Fatalf("coefficients %v: want β_0 = 0 and Σβ = 1", res.Coeffs)
	}
	nntest.AssertClose(t, "filtered", []float64{float64(res.Features[0]), float64(res.Features[1]), float64(res.Features[2]),
		float64(res.Features[3])}, []float64{2, 2, 2, 2}, 1e-7)
}

func TestASGCFilterWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	const n, f = 30, 2*nn.ASGCBlock + 5
	var src, dst []int32
	for range 60 {
		src, dst = append(src, int32(rng.IntN(n))), append(dst, int32(rng.IntN(n)))
	}
	x := make([]float32, n*f)
	for i := range x {
		if rng.Float64() < 0.2 {
			x[i] = 1
		}
	}
	g := nntest.EdgeGraph(t, n, src, dst, x, f, make([]int32, n))
	one, err := nn.ASGCFilter(n, src, dst, g.Features(), 4, 0.01, 1)
	if err != nil {
		t.Fatal(err)
	}
	many, err := nn.ASGCFilter(n, src, dst, g.Features().ToSparse(), 4, 0.01, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Features {
		if one.Features[i] != many.Features[i] {
			t.Fatalf("feature entry %d: 1 worker %v, 3 workers (sparse input) %v", i, one.Features[i], many.Features[i])
		}
	}
}

func TestASGCFilterErrors(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, tc := range []struct {
		n    int
		k    int
		reg  float64
		want string
	}{
		{5, -1, 0.1, "nn: ASGC hops K must be >= 0, got -1"},
		{5, 2, -1, "nn: ASGC regularisation must be finite and >= 0, got -1"},
		{5, 2, math.Inf(1), "nn: ASGC regularisation must be finite and >= 0, got +Inf"},
		{6, 2, 0.1, "nn: ASGC features have 5 rows for 6 nodes"},
	} {
		_, err := nn.ASGCFilter(tc.n, g.Src(), g.Dst(), g.Features(), tc.k, tc.reg, 1)
		if err == nil || err.Error() != tc.want {
			t.Fatalf("got error %v, want %q", err, tc.want)
		}
	}
	if _, err := nn.ASGCFilter(3, []int32{0}, []int32{7}, nntest.TinyGraph(t).Features().SelectRows([]int32{0, 1, 2}), 1, 0.1, 1); err == nil ||
		err.Error() != "nn: edge 0 (0 -> 7) outside 3 nodes" {
		t.Fatalf("got error %v", err)
	}
}
