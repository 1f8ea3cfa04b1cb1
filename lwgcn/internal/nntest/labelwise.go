package nntest

// LabelWiseReference computes label-wise graph convolution the slow,
// obvious way of the official code (nn.LabelWiseConv's reference): it
// builds every A_k as a dense N x N matrix (row-normalised over v's class-k
// in-edges), keeps the classes present (with at least one edge), and
// returns
//
//	concat(A_k1 h, ..., A_kK h, h) · weight + bias
//
// h is N x F, weight is ((K+1)·F) x out in the official layout (class blocks
// in increasing class order, then the self block), bias has out entries.
func LabelWiseReference(h [][]float64, src, dst []int32, class []int32, numClasses int, weight [][]float64,
	bias []float64) [][]float64 {
	n := len(h)
	f := len(h[0])
	present := make([]bool, numClasses)
	for e := range src {
		present[class[src[e]]] = true
	}
	var blocks [][][]float64 // each N x F
	for k := range numClasses {
		if !present[k] {
			continue
		}
		a := make([][]float64, n)
		for v := range a {
			a[v] = make([]float64, n)
		}
		for e := range src {
			if class[src[e]] == int32(k) {
				a[dst[e]][src[e]]++
			}
		}
		for v := range a {
			deg := 0.0
			for _, x := range a[v] {
				deg += x
			}
			if deg > 0 {
				for u := range a[v] {
					a[v][u] /= deg
				}
			}
		}
		blocks = append(blocks, DenseMatMul(a, h))
	}
	blocks = append(blocks, h)
	out := make([][]float64, n)
	for v := range out {
		cat := make([]float64, 0, len(blocks)*f)
		for _, b := range blocks {
			cat = append(cat, b[v]...)
		}
		out[v] = make([]float64, len(bias))
		for j := range bias {
			s := bias[j]
			for i, x := range cat {
				s += x * weight[i][j]
			}
			out[v][j] = s
		}
	}
	return out
}

// LabelWiseConcatWeight converts LabelWiseConv's weights W_0 [F, out]
// ("weight_self") and W_cls [F, C, out] ("weight_cls"), flattened row-major,
// into the official ((K+1)·F) x out layout for the present classes (see
// LabelWiseReference).
func LabelWiseConcatWeight(wSelf, wCls []float64, f, numClasses, out int, present []bool) [][]float64 {
	var rows [][]float64
	for k := range numClasses {
		if !present[k] {
			continue
		}
		for j := range f {
			off := (j*numClasses + k) * out
			rows = append(rows, append([]float64(nil), wCls[off:off+out]...))
		}
	}
	for j := range f {
		rows = append(rows, append([]float64(nil), wSelf[j*out:(j+1)*out]...))
	}
	return rows
}
