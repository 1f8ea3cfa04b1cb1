package sparse

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
)

// Form is how a product with a sparse matrix (SpMat.Mul, SpMat.MulRuns) is
// computed inside a graph. The forms compute the same product (tested
// against each other, values and gradients, on pure Go and XLA in
// lwgcn/parity); they differ in ops and speed per backend.
type Form int

const (
	// FormAuto chooses by backend and size (FormFor).
	FormAuto Form = iota
	// FormELL is the pure-Go backend's form: the bucketed ELL chunks (and
	// for small matrices one Dot with the dense B; see DenseMaxElements).
	// It is a cache trick for that backend: on XLA its many small gathers,
	// concatenations and position gathers multiply ops and compile time.
	FormELL
	// FormDense is one matrix product (a GEMM) with B dense [rows, cols]:
	// the host's dense copy for small matrices, else scattered from the
	// coordinates inside the graph. Its gradient is XLA's transposed GEMM.
	FormDense
	// FormSegment is one gather of x's rows per entry and one sorted
	// scatter-sum of them into the rows (a segment sum; entries are sorted
	// by row); beyond SegmentChunkBytes the entries go in chunks through a
	// While loop, one gather and one scatter-sum each. Its gradient is the
	// same over the columns (a gather at the rows, a scatter-sum into the
	// columns).
	FormSegment
)

// String names the form (as the tests and benchmarks print it).
func (f Form) String() string {
	switch f {
	case FormAuto:
		return "auto"
	case FormELL:
		return "ell"
	case FormDense:
		return "dense"
	case FormSegment:
		return "segment"
	}
	return "form?"
}

// XLADenseMaxNodes: on backends other than pure Go, products with a
// matrix of at most XLADenseMaxNodes² elements (an adjacency of that many
// nodes; rectangular ones, e.g. sparse features, by their area) use
// FormDense, larger ones FormSegment: the GEMM costs rows·cols·H, the
// segment form about NNZ·H with a higher cost per entry. Measured on XLA
// CPU (lwgcn/parity's BenchmarkSparseForms: A·x and its gradient, x
// [N, 64], about 9 entries per row; the 2-core machine shared with other
// work, load ~5, so the crossover is rough), ms dense / segment: N=32
// 0.13/0.15, 64 0.18/0.10, 128 0.47/0.19, 183 0.56-0.67/0.23-0.33, 512
// 2.0/0.46, 1024 9.0/1.1, 2708 32/2.5, 5201 185/4.2; a second run, busier
// still: 64 0.08/0.11, 128 0.52/0.13, 183 0.41/0.57, 512 2.9/0.80, 5201
// 437/13. So on XLA CPU the crossover lies somewhere between 48 and 183
// nodes (noise) and the segment form wins clearly from 512 on; the
// datasets of the paper (183 nodes and more) all use it. A GPU's GEMM is far cheaper per element: measure there
// (xla/gpu-check.sh runs the benchmark) before raising this for xla:cuda.
var XLADenseMaxNodes = 32

// ForceForm, when not FormAuto, is the form of every product built from
// now on (tests and benchmarks compare the forms with it).
var ForceForm = FormAuto

// FormFor returns the form of a product with a rows x cols matrix on the
// backend named backendName (compute.Backend.String: "go", "xla"): FormELL on the pure-Go
// backend; elsewhere (XLA) FormDense up to XLADenseMaxNodes² elements,
// FormSegment beyond.
func FormFor(backendName string, rows, cols int) Form {
	if ForceForm != FormAuto {
		return ForceForm
	}
	if backendName == gobackend.BackendName {
		return FormELL
	}
	maxNodes := XLADenseMaxNodes
	if n, set, err := buildinfo.XLADenseMaxNodes(); err != nil {
		panic(fmt.Sprintf("sparse: %v", err))
	} else if set {
		maxNodes = n
	}
	if rows*cols <= maxNodes*maxNodes {
		return FormDense
	}
	return FormSegment
}

// form is the form of m's products in its graph. A SortedPadded view exists
// only in the ELL form.
func (m *SpMat) form() Form {
	if m.sortedView {
		return FormELL
	}
	return FormFor(m.Rows.Graph().Backend().String(), m.NumRows, m.NumCols)
}

// entryVals returns the entries' values [NNZ] in dt without gradient (the
// overriding ones, the stored ones or nil for ones).
func (m *SpMat) entryVals(dt dtypes.DType) *Node {
	if m.Vals == nil {
		return nil
	}
	return StopGradient(ConvertDType(m.Vals, dt))
}

// denseB returns B [NumRows, NumCols] in dt without gradient: the host's
// dense copy when it holds the entries' values, else scattered from the
// coordinates (duplicates add up).
func (m *SpMat) denseB(dt dtypes.DType) *Node {
	if m.dense != nil && (m.Vals == nil || m.Vals == m.storedVals()) {
		return StopGradient(ConvertDType(m.dense, dt))
	}
	coo := m.coo
	if coo == nil {
		coo = Concatenate([]*Node{m.Rows, m.Cols}, 1)
	}
	v := m.entryVals(dt)
	if v == nil {
		v = Ones(m.Rows.Graph(), shapes.Make(dt, m.NNZ))
	}
	return Scatter(coo, v, shapes.Make(dt, m.NumRows, m.NumCols), true, false)
}

// mulForm is Mul in FormDense or FormSegment: rs ⊙ (B·(cs ⊙ x)); the
// dense form's gradient from GoMLX's autodiff (a transposed GEMM), the
// segment form's its own (segmentProduct).
func (m *SpMat) mulForm(x *Node, f Form) *Node {
	dt := x.DType()
	if f == FormSegment {
		var vals *Node
		if v := m.entryVals(dt); v != nil {
			vals = ExpandAxes(v, -1) // [NNZ, 1]
		}
		return m.segmentProduct(x, vals, 1)
	}
	rs, cs := m.scales(dt)
	return m.denseProduct(x, m.denseB(dt), rs, cs)
}

// denseProduct is rs ⊙ (b·(cs ⊙ x)) with GoMLX's gradient of the GEMM (to
// x unless m has none, and to b where b carries one).
func (m *SpMat) denseProduct(x, b, rs, cs *Node) *Node {
	if m.noGrad {
		x = StopGradient(x)
	}
	if cs != nil {
		x = Mul(x, cs)
	}
	y := Dot(b, x).Product()
	if rs != nil {
		y = Mul(y, rs)
	}
	return y
}

// mulRunsSegment is MulRuns in FormSegment with per-run values vals
// [NNZ, R] (already without gradient, in x's dtype).
func (m *SpMat) mulRunsSegment(x, vals *Node, runs int) *Node {
	return m.segmentProduct(x, vals, runs)
}

// SegmentLoopBytes and SegmentChunkBytes: FormSegment gathers all the
// entries' rows in one block ([NNZ, W], W = x's columns) up to
// SegmentLoopBytes; beyond, the entries go through the product in chunks
// whose gathered rows [chunk, W] hold at most SegmentChunkBytes (and at
// least 256 entries), one chunk per iteration of a While loop that
// scatter-sums each chunk into the result. Squirrel's one block (222,274
// entries of 256 columns, 227 MB) was written to fresh memory and read back
// by the scatter at every product: on XLA CPU the page faults (~40 % of the
// time in the kernel) and the memory traffic took most of the full LW-GCN
// epoch. BenchmarkSegmentChunks (lwgcn/parity: A·x and its gradient, XLA
// CPU on the 2-core machine shared with another job): 5201 nodes, ~40
// entries per row, x [5201, 256]: 491 ms in one block, 200-220 ms in 16 MiB
// chunks, 73-99 ms in 4 MiB, 63-73 ms in 1 MiB, 66-84 ms in 256 KiB; but
// 2708 nodes, ~5 per row, x [2708, 64] (a 3.5 MB block, Cora's size): 1.1
// ms in one block, 1.3 in 4 MiB chunks, 2.5 in 1 MiB; 2277 nodes, ~17 per
// row (9.7 MB, Chameleon's): 3.7 ms in one block, 3.5 in 4 MiB chunks, 4.3
// in 1 MiB. The loop pays only for large blocks: SegmentLoopBytes is 32 MiB,
// glibc's largest mmap threshold (larger temporaries are fresh mappings at
// every call); none of the paper's products lies between 10 and 227 MB to
// place it better.
//
// On a GPU the 1 MiB chunks are far too small: XLA's GPU runtime drives a
// While loop from the host, iteration by iteration, so Squirrel's 218
// chunks per product made its full LW-GCN epoch 18.9 ms on an H200,
// host-bound (CPU time equal to wall time), against 2.7 ms in one block
// (same call); there the chunk is SegmentGPUChunkBytes.
var (
	SegmentLoopBytes  = 32 << 20
	SegmentChunkBytes = 1 << 20
)

// SegmentGPUChunkBytes is the chunk of the segment products on a GPU: one
// block up to it, beyond it a loop of chunks this large; 0: one block at
// any size. buildinfo.EnvSegmentGPUChunkMiB replaces it for A/B runs.
// Squirrel's LW-GCN epoch on an H200 (lwgcn bench-batched, ten runs
// batched / one alone, ms per split-epoch; xla/README.md, "GPU"): 1 MiB
// 6.6 / 16.6, 4 MiB 4.1 / 5.1, 8 MiB 3.3 / 4.0, 12 MiB 2.6 / 3.8, 16 MiB
// 2.4 / 3.4, 24 MiB 2.2 / 3.2, 32 MiB 2.2 / 3.1, 64 MiB 18.9 / 3.1, 256 MiB
// 33.2 / 3.0, one block 28.8 / 3.0: the ten runs' rows (10 KiB) made large
// blocks slow (XLA's scatter; not profiled), one run's (1 KiB) did not.
var SegmentGPUChunkBytes = 32 << 20

// onGPU reports whether b is XLA on a GPU plugin (CUDA, ROCm), where the
// segment products take SegmentGPUChunkBytes.
func onGPU(b compute.Backend) bool {
	if b == nil || b.Name() == gobackend.BackendName {
		return false
	}
	p, ok := b.(interface{ PluginName() string })
	return ok && buildinfo.PluginOnGPU(p.PluginName())
}

// segmentChunk returns the entries per chunk of a FormSegment product with
// nnz entries whose gathered rows are rowBytes long, or 0 for one block:
// one block up to SegmentLoopBytes (SegmentGPUChunkBytes on a GPU) and for
// at most one chunk's entries.
func segmentChunk(nnz, rowBytes int, onGPU bool) int {
	loopBytes, chunkBytes := SegmentLoopBytes, SegmentChunkBytes
	if onGPU {
		loopBytes = SegmentGPUChunkBytes
		if mib, set, err := buildinfo.SegmentGPUChunkMiB(); err != nil {
			panic(fmt.Sprintf("sparse: %v", err))
		} else if set {
			loopBytes = mib << 20
		}
		if loopBytes == 0 {
			return 0
		}
		chunkBytes = loopBytes
	}
	chunk := max(256, chunkBytes/max(1, rowBytes))
	if nnz*rowBytes <= loopBytes || nnz <= chunk {
		return 0
	}
	return chunk
}

// segmentProduct is rs ⊙ (B_r·(cs ⊙ x_r)) in FormSegment for R runs (x
// [NumCols, R·H], run r in columns r·H...; vals [NNZ, R] the entries'
// values of each run, [NNZ, 1] the same for all, nil ones; without
// gradient). Its gradient is the transposed product, cs ⊙ (B_rᵀ·(rs ⊙ v_r)),
// from the same chunks: the gather at the rows and the scatter-sum into
// the columns (unsorted).
func (m *SpMat) segmentProduct(x, vals *Node, runs int) *Node {
	dt := x.DType()
	rs, cs := m.scales(dt)
	// The product and its transpose.
	fwd := func(x *Node) *Node { return scaledSegmentSum(x, cs, rs, m.Cols, m.Rows, vals, m.NumRows, runs, true) }
	if m.noGrad {
		return fwd(StopGradient(x))
	}
	bwd := func(v *Node) *Node { return scaledSegmentSum(v, rs, cs, m.Rows, m.Cols, vals, m.NumCols, runs, false) }
	return linearWithCustomGradient(x, fwd, bwd)
}

// scaledSegmentSum is post ⊙ segmentSum(pre ⊙ v) (nil scales: none): a
// product in FormSegment (from the columns to the rows) or its transpose.
func scaledSegmentSum(v, pre, post, from, to, vals *Node, rows, runs int, sorted bool) *Node {
	if pre != nil {
		v = Mul(v, pre)
	}
	y := segmentSum(v, from, to, vals, rows, runs, sorted)
	if post != nil {
		y = Mul(y, post)
	}
	return y
}

// segmentSum returns the [rows, W] matrix whose row to_e sums vals_e ⊙
// x[from_e] over the entries e (from, to [NNZ, 1] int32; vals as in
// segmentProduct, run r's value scaling columns r·H...; sorted: to is
// sorted): one gather and one scatter-sum, or beyond SegmentLoopBytes a
// While loop over chunks of the entries (SegmentChunkBytes), each one gather and
// one scatter-sum into the running sum. x travels in the loop's state, so
// that the result depends on it in the graph (linearWithCustomGradient
// needs that).
func segmentSum(x, from, to, vals *Node, rows, runs int, sorted bool) *Node {
	g, dt := x.Graph(), x.DType()
	nnz, w := from.Shape().Dimensions[0], x.Shape().Dimensions[1]
	out := shapes.Make(dt, rows, w)
	// Const and a broadcast rather than Scalar and Zeros (or Scatter, which
	// uses Zeros): segmentSum also runs inside loop bodies (LoopMat), where
	// GoMLX's cached scalars, built in another function, cannot be read.
	zeros := BroadcastToShape(ConstAsDType(g, dt, 0), out)
	block := func(x, from, vals *Node) *Node {
		blk := Gather(x, from, false) // [chunk, W]
		if vals == nil {
			return blk
		}
		if runs == 1 {
			return Mul(blk, vals)
		}
		c := blk.Shape().Dimensions[0]
		return Reshape(Mul(Reshape(blk, c, runs, w/runs), ExpandAxes(vals, -1)), c, w)
	}
	chunk := segmentChunk(nnz, w*dt.Size(), onGPU(g.Backend()))
	if chunk == 0 {
		return ScatterSum(zeros, to, block(x, from, vals), sorted, false)
	}
	// Iteration i takes the entries from start_i = min(i·chunk, NNZ-chunk):
	// the last chunk overlaps the one before instead of being shorter (one
	// loop body, no second product for the rest), its entries before
	// i·chunk left out by a select (never a product with 0: the row it
	// would gather may hold an infinity). The chunk's entries are gathered
	// at their positions (the pure-Go backend has no DynamicSlice).
	loops := (nnz + chunk - 1) / chunk
	state := []*Node{Const(g, int32(0)), zeros, x, from, to}
	if vals != nil {
		state = append(state, vals)
	}
	params := func(g *Graph) []*Node {
		p := make([]*Node, len(state))
		for i, s := range state {
			p[i] = Parameter(g, fmt.Sprintf("s%d", i), s.Shape())
		}
		return p
	}
	// No cached scalars (Scalar, Zeros, MulScalar...) inside the closures:
	// GoMLX caches them per graph, and a node of one closure cannot be used
	// in another function.
	cond := NewClosure(g, func(g *Graph) []*Node {
		p := params(g)
		return []*Node{LessThan(p[0], Const(g, int32(loops)))}
	})
	body := NewClosure(g, func(g *Graph) []*Node {
		p := params(g)
		i, sum, x := p[0], p[1], p[2]
		first := Mul(i, Const(g, int32(chunk)))
		pos := Add(Iota(g, shapes.Make(dtypes.Int32, chunk, 1), 0), Min(first, Const(g, int32(nnz-chunk))))
		cut := func(a *Node) *Node { return Gather(a, pos, true) } // [chunk, ·]
		var v *Node
		if vals != nil {
			v = cut(p[5])
		}
		blk := block(x, cut(p[3]), v)
		if nnz%chunk != 0 {
			blk = Where(GreaterOrEqual(pos, first), blk, ConstAsDType(g, dt, 0))
		}
		sum = ScatterSum(sum, cut(p[4]), blk, sorted, false)
		return append([]*Node{Add(i, Const(g, int32(1))), sum}, p[2:]...)
	})
	return While(cond, body, state...)[1]
}
