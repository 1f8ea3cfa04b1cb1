package sparse

// SetDenseGradientTranspose switches the dense form's gradient between the
// stored transpose and GoMLX's gradient of Dot (BenchmarkDenseMul),
// returning the previous setting.
func SetDenseGradientTranspose(on bool) bool {
	old := denseGradientTranspose
	denseGradientTranspose = on
	return old
}

// MulIsDense says whether m.Mul multiplies x of width columns in the dense
// form.
func MulIsDense(m *SpMat, width int) bool { return m.dense != nil && m.denseFor(width) }

// DenseFloat32 is denseFloat32 (SetAuto's dense form).
var DenseFloat32 = denseFloat32
