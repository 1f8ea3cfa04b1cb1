package nn

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// PerRun is each run's h_r·W_r for h [N, R·in] (run r in columns
// r·in … (r+1)·in-1) and the runs' weights held transposed, wT [R, out, in]
// (RunsTransposed): one product batched over the runs, [N, R·out].
//
// Why the transposed weights and a hand-written gradient: the pure-Go
// backend multiplies only with the batch axis first and the contracted
// axis last on the left, and GoMLX's automatic gradient of the forward
// product asks for the weight gradient as [R, out, N]·[R, N, in]-shaped
// operands, which costs general 3-D transposes of the activations (the
// slow element-by-element path, measured at a quarter of a batched LW-GCN
// epoch on Texas). Here every transpose is one the backend does fast
// (2-D, or [N, R, X] ↔ [R, N, X]):
//
//	forward  y  = (h as [R, N, in]) · wTᵀ               → [N, R, out]
//	dh          = (v as [R, N, out]) · wT               → [N, R, in]
//	dwT         = (vᵀ as [R, out, N]) · (h as [R, N, in])
//
// with vᵀ the 2-D transpose of v [N, R·out], and dwT's rows padded to
// PerRunGradientRows. The same numbers as alone (the same products per
// run).
func PerRun(h, wT *Node, runs int) *Node {
	r := runs
	n, width := h.Shape().Dimensions[0], h.Shape().Dimensions[1]
	if wT.Rank() != 3 || wT.Shape().Dimensions[0] != r || width != r*wT.Shape().Dimensions[2] {
		panicf("nn: PerRun of %s with weights %s for %d runs (want [%d, out, %d])", h.Shape(), wT.Shape(), r, r, width/max(r, 1))
	}
	in, out := wT.Shape().Dimensions[2], wT.Shape().Dimensions[1]
	// fwd is y with the gradient for h only: [R, N, in]·[R, out, in]ᵀ.
	fwd := func(h, wT *Node) *Node {
		y := DotGeneral(Reshape(h, n, r, in), []int{2}, []int{1}, wT, []int{2}, []int{0}) // [R, N, out]
		return Reshape(TransposeAllDims(y, 1, 0, 2), n, r*out)
	}
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node { return []*Node{fwd(h, wT)} },
		func() []*Node {
			// Only the gradients of this sum are used (its value, 2y, is
			// never computed): the first term's for h, the second's for wT.
			hr := TransposeAllDims(Reshape(StopGradient(h), n, r, in), 1, 0, 2) // [R, N, in]
			// dwT is [R, out, N]·[R, N, in]; a narrow out is padded with
			// zero weights (see PerRunGradientRows) and sliced away.
			wTp := wT
			if rows := PerRunGradientRows(out); rows > out && perRunPadRows {
				wTp = Concatenate([]*Node{wT, Zeros(wT.Graph(), shapes.Make(wT.DType(), r, rows-out, in))}, 1)
			}
			yT := DotGeneral(wTp, []int{2}, []int{0}, hr, []int{2}, []int{0}) // [R, rows, N]
			if yT.Shape().Dimensions[1] > out {
				yT = Slice(yT, AxisRange(), AxisRange(0, out), AxisRange())
			}
			yw := Transpose(Reshape(yT, r*out, n), 0, 1) // [N, R·out]
			return []*Node{Add(fwd(h, StopGradient(wT)), yw)}
		},
		true)
	return outs[0]
}

// PerRunGradientRows is the number of rows PerRun's weight gradient
// [R, out, N]·[R, N, in] is computed with: out rounded up to a multiple of
// 4, the extra rows (zero weights) computed and dropped. The Go backend's
// batched product takes a slow path for other row counts: for 10 runs,
// N = 2277 and in = 64, 5 rows took 5.3 ms and 8 rows 0.7 ms; 7 rows 11.0
// ms, 1 row 4.1 ms, 4 rows 0.7 ms, 13 rows 5.5 ms and 16 rows 2.7 ms (a last
// layer's class axis, FAGCN's attention scores).
func PerRunGradientRows(out int) int { return (out + 3) / 4 * 4 }

// perRunPadRows is off only in BenchmarkPerRun, to measure the padding.
var perRunPadRows = true

// runsProject is each run's h_r·W_r for h [N, R·in]: Project with one run
// (w [in, out]), PerRun with several (w RunsTransposed).
func runsProject(h, w *Node, runs int) *Node {
	if runs == 1 {
		return Project(h, w)
	}
	return PerRun(h, w, runs)
}

// runsSliceIn returns the rows a … b-1 of the input axis of a weight held
// for runs runs ([in, ...] for one run, RunsTransposed [R, out, in] for
// several).
func runsSliceIn(w *Node, runs, a, b int) *Node {
	if runs == 1 {
		return Slice(w, AxisRange(a, b))
	}
	return Slice(w, AxisRange(), AxisRange(), AxisRange(a, b))
}

// RunsScale multiplies each run's block of x [N, R·C] by its scalar s_r,
// s [R].
func RunsScale(x, s *Node, runs int) *Node {
	if runs == 1 {
		return Mul(x, Reshape(s))
	}
	n, w := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	return Reshape(Mul(Reshape(x, n, runs, w/runs), Reshape(s, 1, runs, 1)), n, w)
}

// RunsLogSoftmax is ClassLogSoftmax of each run's block of x [N, R·C], for
// the runs built in scope.
func RunsLogSoftmax(scope *model.Scope, x *Node) *Node {
	r := Runs(scope)
	if r == 1 {
		return ClassLogSoftmax(x)
	}
	n, w := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	return Reshape(ClassLogSoftmax(Reshape(x, n, r, w/r)), n, w)
}

// runsMul is each run's A_r·x_r for x [cols, R·H] and a sparse matrix whose
// runs share its pattern: vals [NNZ, R] gives each run's entry values (nil:
// m's own). One run is m.Mul (its values vals, if given).
func runsMul(m *sparse.SpMat, x *Node, runs int, vals *Node) *Node {
	switch {
	case runs > 1:
		return m.MulRuns(x, runs, vals)
	case vals != nil:
		return m.WithVals(Reshape(vals, m.NNZ)).Mul(x)
	}
	return m.Mul(x)
}

// runsPropagate is A·x for x [N, R·H] (every run's columns at once), in the
// layout of sparse.SpMat.MulRuns for a sparse A with several runs.
func runsPropagate(adj sparse.Propagator, x *Node, runs int) *Node {
	if m, ok := adj.(*sparse.SpMat); ok && runs > 1 {
		return m.MulRuns(x, runs, nil)
	}
	return adj.Mul(x)
}
