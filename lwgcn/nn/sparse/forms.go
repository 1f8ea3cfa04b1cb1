package sparse

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
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
	// by row). Its gradient is a scatter-sum and a gather.
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
	if rows*cols <= XLADenseMaxNodes*XLADenseMaxNodes {
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

// mulForm is Mul in FormDense or FormSegment: rs ⊙ (B·(cs ⊙ x)), the
// gradient from GoMLX's autodiff (a transposed product; a scatter-sum and
// a gather).
func (m *SpMat) mulForm(x *Node, f Form) *Node {
	dt := x.DType()
	if m.noGrad {
		x = StopGradient(x)
	}
	if m.ColScale != nil {
		x = Mul(x, ConvertDType(m.ColScale, dt))
	}
	var y *Node
	if f == FormDense {
		y = Dot(m.denseB(dt), x).Product()
	} else {
		rows := Gather(x, m.Cols, false) // [NNZ, H]
		if v := m.entryVals(dt); v != nil {
			rows = Mul(rows, ExpandAxes(v, -1))
		}
		y = Scatter(m.Rows, rows, shapes.Make(dt, m.NumRows, x.Shape().Dimensions[1]), true, false)
	}
	if m.RowScale != nil {
		y = Mul(y, ConvertDType(m.RowScale, dt))
	}
	return y
}

// mulRunsSegment is MulRuns in FormSegment with per-run values vals
// [NNZ, R] (already without gradient, in x's dtype).
func (m *SpMat) mulRunsSegment(x, vals *Node, runs int) *Node {
	dt := x.DType()
	if m.noGrad {
		x = StopGradient(x)
	}
	if m.ColScale != nil {
		x = Mul(x, ConvertDType(m.ColScale, dt))
	}
	w := x.Shape().Dimensions[1]
	rows := Gather(x, m.Cols, false) // [NNZ, R·H]
	rows = Reshape(Mul(Reshape(rows, m.NNZ, runs, w/runs), ExpandAxes(vals, -1)), m.NNZ, w)
	y := Scatter(m.Rows, rows, shapes.Make(dt, m.NumRows, w), true, false)
	if m.RowScale != nil {
		y = Mul(y, ConvertDType(m.RowScale, dt))
	}
	return y
}
