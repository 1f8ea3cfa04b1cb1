package parity

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// formMatrix is a random rows x cols sparse matrix with about deg entries
// per row (a few rows empty, a few columns hubs), its values (nil: ones)
// and row and column scales, as GCN normalisation and feature dropout give.
func formMatrix(t testing.TB, rows, cols, deg int, values bool, rng *rand.Rand) *sparse.SparseMatrix {
	t.Helper()
	var r, c []int32
	var v []float32
	for i := range rows {
		if i%17 == 3 {
			continue // empty rows
		}
		for range 1 + rng.IntN(2*deg) {
			j := rng.IntN(cols)
			if rng.IntN(5) == 0 {
				j = rng.IntN(min(cols, 4)) // hub columns
			}
			r, c = append(r, int32(i)), append(c, int32(j))
			if values {
				v = append(v, float32(0.25+rng.Float64()))
			}
		}
	}
	m, err := sparse.NewSparseMatrix(rows, cols, r, c, v)
	if err != nil {
		t.Fatal(err)
	}
	m.RowScale, m.ColScale = make([]float32, rows), make([]float32, cols)
	for i := range m.RowScale {
		m.RowScale[i] = float32(0.5 + rng.Float64())
	}
	for j := range m.ColScale {
		m.ColScale[j] = float32(0.5 + rng.Float64())
	}
	return m
}

// formReference is A_k·x_k and its gradient Σ_k A_kᵀ·w_k in float64 on the
// host, x [cols, R·H] and w [rows, R·H] with run k in columns k·H...;
// runVals [NNZ, R] (nil: the matrix's values for every run).
func formReference(m *sparse.SparseMatrix, x, w []float32, runs, h int, runVals []float32) (y, grad []float64) {
	width := runs * h
	y, grad = make([]float64, m.NumRows*width), make([]float64, m.NumCols*width)
	for e := range m.Rows {
		i, j := int(m.Rows[e]), int(m.Cols[e])
		for k := range runs {
			a := float64(m.RowScale[i]) * float64(m.ColScale[j])
			switch {
			case runVals != nil:
				a *= float64(runVals[e*runs+k])
			case m.Vals != nil:
				a *= float64(m.Vals[e])
			}
			for c := k * h; c < (k+1)*h; c++ {
				y[i*width+c] += a * float64(x[j*width+c])
				grad[j*width+c] += a * float64(w[i*width+c])
			}
		}
	}
	return y, grad
}

// formProduct builds A·x (MulRuns with runVals when not nil) in form f on
// backend b and returns it, d(Σ y⊙w)/dx, the graph's op counts by type and
// the first call's time (compile and one run).
func formProduct(t *testing.T, b compute.Backend, m *sparse.SparseMatrix, x, w []float32, runs, h int, runVals []float32,
	f sparse.Form) (y, grad []float64, ops map[NodeType]int, first time.Duration) {
	t.Helper()
	in := nn.NewInputs()
	sparse.Set(in, "a", m)
	in.SetFloat("x", x, m.NumCols, runs*h)
	in.SetFloat("w", w, m.NumRows, runs*h)
	if runVals != nil {
		in.SetFloat("runvals", runVals, m.NNZ(), runs)
	}
	defer func(old sparse.Form) { sparse.ForceForm = old }(sparse.ForceForm)
	sparse.ForceForm = f
	ops = map[NodeType]int{}
	exec, err := model.NewExec(b, model.NewStore(), func(_ *model.Scope, g *Graph, params []*Node) []*Node {
		n := in.Nodes(params)
		a := sparse.FromNodes(n, "a")
		xn := n.Get("x")
		var out *Node
		if runVals != nil {
			out = a.MulRuns(xn, runs, n.Get("runvals"))
		} else {
			out = a.Mul(xn)
		}
		res := []*Node{out, Gradient(ReduceAllSum(Mul(out, n.Get("w"))), xn)[0]}
		for _, node := range g.Nodes() {
			ops[node.Type()]++
		}
		return res
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	outs, err := exec.Call(in.Tensors()...)
	if err != nil {
		t.Fatalf("%s form on %s: %v", f, b.Name(), err)
	}
	first = time.Since(start)
	y, grad = toFloat64(t, outs[0]), toFloat64(t, outs[1])
	for _, o := range outs {
		o.FinalizeAll()
	}
	return y, grad, ops, first
}

// TestSparseFormsEqual: every form of the sparse product (ELL chunks, one
// dense GEMM, gather plus sorted scatter-sum, the same in a While loop over
// chunks of the entries, and the automatic choice)
// computes A·x and its gradient Aᵀ·w as the host does in float64, on the
// pure-Go backend and on XLA, for square matrices with and without values,
// a rectangular one (features), ones larger than the host's dense copy
// (DenseMaxElements: real ELL chunks, hub columns) and per-run values
// (MulRuns).
func TestSparseFormsEqual(t *testing.T) {
	goB, xlaB := backends(t)
	rng := rand.New(rand.NewPCG(seed, 33))
	cases := []struct {
		name            string
		rows, cols, deg int
		values          bool
		runs, h         int
		perRunValues    bool
	}{
		{name: "square binary", rows: 60, cols: 60, deg: 3, runs: 1, h: 8},
		{name: "square values wide", rows: 300, cols: 300, deg: 4, values: true, runs: 1, h: 40},
		{name: "features", rows: 50, cols: 90, deg: 6, values: true, runs: 1, h: 16},
		{name: "large", rows: 700, cols: 700, deg: 5, runs: 1, h: 24},
		{name: "runs", rows: 80, cols: 80, deg: 4, runs: 3, h: 4, perRunValues: true},
		{name: "runs large", rows: 600, cols: 600, deg: 3, runs: 2, h: 8, perRunValues: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := formMatrix(t, c.rows, c.cols, c.deg, c.values, rng)
			x := make([]float32, c.cols*c.runs*c.h)
			w := make([]float32, c.rows*c.runs*c.h)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			for i := range w {
				w[i] = float32(rng.NormFloat64())
			}
			var runVals []float32
			if c.perRunValues {
				runVals = make([]float32, m.NNZ()*c.runs)
				for i := range runVals {
					runVals[i] = float32(rng.Float64() * 2)
				}
			}
			wantY, wantG := formReference(m, x, w, c.runs, c.h, runVals)
			// The segment form once more in chunks of 256 entries (the
			// least SegmentChunkBytes gives) where the matrix has more: a
			// While loop, its last chunk overlapping the one before.
			type variant struct {
				form  sparse.Form
				chunk int // SegmentChunkBytes; 0: the default
			}
			variants := []variant{{form: sparse.FormELL}, {form: sparse.FormDense}, {form: sparse.FormSegment},
				{form: sparse.FormSegment, chunk: 1}, {form: sparse.FormAuto}}
			for _, b := range []compute.Backend{goB, xlaB} {
				for _, v := range variants {
					name, oldLoop, oldChunk, oldGPU := v.form.String(), sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes
					if v.chunk != 0 {
						// On a GPU, SegmentGPUChunkBytes sets the chunk.
						name += " (a loop of 256-entry chunks)"
						sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes = 0, v.chunk, v.chunk
					}
					y, g, ops, _ := formProduct(t, b, m, x, w, c.runs, c.h, runVals, v.form)
					sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes = oldLoop, oldChunk, oldGPU
					if v.chunk != 0 {
						if loops := ops[NodeTypeWhile]; (m.NNZ() > 256) != (loops == 2) {
							t.Errorf("%s, %s form, %d entries: %d While loops, want 2 (product and gradient) beyond 256 entries, else none",
								b.Name(), name, m.NNZ(), loops)
						}
					}
					if d := Compare(y, wantY, OutputTolerance); !d.OK() {
						t.Errorf("%s, %s form: A·x differs from the host's: %s", b.Name(), name, d)
					}
					if d := Compare(g, wantG, OutputTolerance); !d.OK() {
						t.Errorf("%s, %s form: gradient Aᵀ·w differs from the host's: %s", b.Name(), name, d)
					}
				}
			}
		})
	}
}

// TestSparseFormChosen: the forms each backend builds (FormFor): the ELL
// chunks' gathers on pure Go, one matrix product and no gather on XLA up
// to XLADenseMaxNodes² elements, one gather and one scatter-sum each way
// beyond.
func TestSparseFormChosen(t *testing.T) {
	goB, xlaB := backends(t)
	if sparse.ForceForm != sparse.FormAuto {
		t.Fatalf("sparse.ForceForm is %s", sparse.ForceForm)
	}
	n := sparse.XLADenseMaxNodes
	for _, c := range []struct {
		backend    compute.Backend
		rows, cols int
		want       sparse.Form
	}{
		{goB, 600, 600, sparse.FormELL},
		{goB, 20, 20, sparse.FormELL},
		{xlaB, n, n, sparse.FormDense},
		{xlaB, n / 2, 2 * n, sparse.FormDense}, // features: by area
		{xlaB, n, n + 1, sparse.FormSegment},
		{xlaB, n + 1, n + 1, sparse.FormSegment},
	} {
		if got := sparse.FormFor(c.backend.String(), c.rows, c.cols); got != c.want {
			t.Errorf("FormFor(%s, %d x %d) = %s, want %s", c.backend.String(), c.rows, c.cols, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 34))
	check := func(b compute.Backend, n int, check func(ops map[NodeType]int) string) {
		m := formMatrix(t, n, n, 3, false, rng)
		x, w := make([]float32, n*8), make([]float32, n*8)
		_, _, ops, _ := formProduct(t, b, m, x, w, 1, 8, nil, sparse.FormAuto)
		if msg := check(ops); msg != "" {
			t.Errorf("%s, %d nodes: %s (ops: %d gathers, %d scatter-sums, %d dots)", b.Name(), n, msg,
				ops[NodeTypeGather], ops[NodeTypeScatterSum], ops[NodeTypeDotGeneral])
		}
	}
	check(goB, 600, func(ops map[NodeType]int) string {
		if ops[NodeTypeGather] < 4 || ops[NodeTypeScatterSum] > 0 {
			return "want the ELL chunks' gathers (forward and gradient) and no scatter"
		}
		return ""
	})
	check(xlaB, min(600, sparse.XLADenseMaxNodes), func(ops map[NodeType]int) string {
		if ops[NodeTypeDotGeneral] == 0 || ops[NodeTypeGather] > 0 {
			return "want the dense form: matrix products, no gather"
		}
		return ""
	})
	check(xlaB, sparse.XLADenseMaxNodes+1, func(ops map[NodeType]int) string {
		if ops[NodeTypeDotGeneral] > 0 || ops[NodeTypeGather] != 2 || ops[NodeTypeScatterSum] != 2 {
			return "want the segment form: one gather and one scatter-sum each way, no matrix product"
		}
		return ""
	})
}

// BenchmarkSparseForms times A·x and its gradient on XLA in the dense and
// the segment forms for growing N (x [N, 64], about 9 entries per row):
// the measurement behind sparse.XLADenseMaxNodes. On the backend
// LWGCN_PARITY_XLA names (e.g. a GPU's), else XLA CPU:
//
//	LWGCN_XLA_PLUGIN=$PWD/build/xla/pjrt_c_api_cpu_plugin.so go test ./lwgcn/parity -run '^$' -bench SparseForms
func BenchmarkSparseForms(b *testing.B) {
	xlaB := benchXLA(b)
	t := b
	rng := rand.New(rand.NewPCG(seed, 35))
	for _, n := range []int{32, 64, 128, 183, 512, 1024, 2048, 2708, 5201} {
		m := formMatrix(t, n, n, 8, false, rng)
		for _, f := range []sparse.Form{sparse.FormDense, sparse.FormSegment} {
			b.Run(fmt.Sprintf("n=%d/%s", n, f), func(b *testing.B) { benchProduct(b, xlaB, m, 64, f) })
		}
	}
}

// BenchmarkSegmentChunks times A·x and its gradient on XLA in the segment
// form on matrices of about Squirrel's (5201 nodes, ~40 entries per row, x
// [N, 256]), Chameleon's and Cora's sizes (x [N, 64]) with the entries in
// one block and in While-loop chunks of several sizes
// (sparse.SegmentChunkBytes, on a GPU sparse.SegmentGPUChunkBytes; the
// measurement behind them and sparse.SegmentLoopBytes), as the benchmark
// above selects its backend.
func BenchmarkSegmentChunks(b *testing.B) {
	xlaB := benchXLA(b)
	defer func(loop, chunk, gpu int) {
		sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes = loop, chunk, gpu
	}(sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes)
	sparse.SegmentLoopBytes = 0
	for _, c := range []struct{ n, deg, h int }{{5201, 40, 256}, {2277, 16, 64}, {2708, 4, 64}} {
		m := formMatrix(b, c.n, c.n, c.deg, false, rand.New(rand.NewPCG(seed, 36)))
		for _, bytes := range []int{1 << 40, 16 << 20, 4 << 20, 1 << 20, 256 << 10} {
			name := fmt.Sprintf("n=%d,h=%d/chunk=%dKiB", c.n, c.h, bytes>>10)
			if bytes == 1<<40 {
				name = fmt.Sprintf("n=%d,h=%d/one-block", c.n, c.h)
			}
			b.Run(name, func(b *testing.B) {
				// On a GPU the chunk is SegmentGPUChunkBytes (0: one block).
				sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes = bytes, bytes%(1<<40)
				benchProduct(b, xlaB, m, c.h, sparse.FormSegment)
			})
		}
	}
}

// BenchmarkELLOnXLA times A·x and its gradient on XLA in the pure-Go
// backend's bucketed-ELL form (in ChunkBytes chunks, and each bucket whole)
// beside the segment form, on BenchmarkSegmentChunks's matrices: whether
// the ELL layout's gathers and sums, which need no scatter, pay on XLA too.
func BenchmarkELLOnXLA(b *testing.B) {
	xlaB := benchXLA(b)
	defer func(chunk int) { sparse.ChunkBytes = chunk }(sparse.ChunkBytes)
	for _, c := range []struct{ n, deg, h int }{{5201, 40, 256}, {2277, 16, 64}, {2708, 4, 64}} {
		m := formMatrix(b, c.n, c.n, c.deg, false, rand.New(rand.NewPCG(seed, 36)))
		for _, v := range []struct {
			name  string
			f     sparse.Form
			chunk int
		}{{"segment", sparse.FormSegment, 1 << 20}, {"ell-chunks", sparse.FormELL, 1 << 20}, {"ell-whole", sparse.FormELL, 1 << 40}} {
			b.Run(fmt.Sprintf("n=%d,h=%d/%s", c.n, c.h, v.name), func(b *testing.B) {
				sparse.ChunkBytes = v.chunk
				benchProduct(b, xlaB, m, c.h, v.f)
			})
		}
	}
}

// benchProduct times A·x and its gradient (x [N, h]) in form f on backend
// xlaB.
func benchProduct(b *testing.B, xlaB compute.Backend, m *sparse.SparseMatrix, h int, f sparse.Form) {
	n := m.NumRows
	x, w := make([]float32, n*h), make([]float32, n*h)
	in := nn.NewInputs()
	sparse.Set(in, "a", m)
	in.SetFloat("x", x, n, h)
	in.SetFloat("w", w, n, h)
	defer func(old sparse.Form) { sparse.ForceForm = old }(sparse.ForceForm)
	sparse.ForceForm = f
	exec, err := model.NewExec(xlaB, model.NewStore(), func(_ *model.Scope, g *Graph, params []*Node) []*Node {
		nd := in.Nodes(params)
		xn := nd.Get("x")
		out := sparse.FromNodes(nd, "a").Mul(xn)
		return []*Node{Gradient(ReduceAllSum(Mul(out, nd.Get("w"))), xn)[0], ReduceAllSum(out)}
	})
	if err != nil {
		b.Fatal(err)
	}
	args := in.Tensors()
	run := func() {
		outs, err := exec.Call(args...)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range outs {
			o.FinalizeAll()
		}
	}
	run() // compile
	b.ResetTimer()
	for b.Loop() {
		run()
	}
}

// benchXLA is the XLA backend the benchmarks time: LWGCN_PARITY_XLA's, else
// XLA CPU when a plugin is set; it skips the benchmark without one.
func benchXLA(b *testing.B) compute.Backend {
	config := os.Getenv(EnvParityXLA)
	if config == "" {
		if os.Getenv(backend.EnvXLAPlugin) == "" {
			b.Skip("no XLA backend: set " + EnvParityXLA + " or " + backend.EnvXLAPlugin)
		}
		config = "xla:cpu"
	}
	xlaB, _, err := backend.NewFor(config)
	if err != nil {
		b.Fatal(err)
	}
	return xlaB
}
