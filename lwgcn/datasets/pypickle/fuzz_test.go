package pypickle_test

import (
	"testing"

	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
	"github.com/lwgcn/toolkit/lwgcn/datasets/pypickle"
	"github.com/nlpodyssey/gopickle/types"
)

// walk converts whatever was decoded with every helper the loaders use; none
// may panic. depth bounds the walk because pickles can build cycles.
func walk(v any, depth int) {
	if depth > 4 {
		return
	}
	pypickle.Int(v)
	pypickle.Float(v)
	pypickle.Ints(v)
	pypickle.Bytes(v)
	if a, err := pypickle.Array(v); err == nil {
		a.Float32s()
		a.Int64s()
		a.Bools()
		for _, o := range a.Objects {
			walk(o, depth+1)
		}
	}
	if m, ok := v.(*pypickle.CSRMatrix); ok {
		m.ToCSR()
	}
	if items, err := pypickle.Items(v); err == nil {
		for _, e := range items {
			walk(e.Key, depth+1)
			walk(e.Value, depth+1)
		}
	}
	switch s := v.(type) {
	case *types.List:
		for _, x := range *s {
			walk(x, depth+1)
		}
	case *types.Tuple:
		for _, x := range *s {
			walk(x, depth+1)
		}
	}
}

func FuzzLoads(f *testing.F) {
	ip, ix, d := fx.DenseCSR(2, 3, []float32{0, 1.5, 0, 2, 0, 3})
	f.Add(fx.CSRMatrix(2, 3, ip, ix, d))
	f.Add(fx.OneHot([]int{1, 0, 2}, 3))
	f.Add(fx.AdjacencyDict(map[int][]int{0: {1}, 1: {0, 2}, 2: {1}}, true))
	f.Add(fx.SplitDicts([][3][]int{{{0}, {1}, {2}}}))
	f.Add(fx.NewPickle().Unicode("collections").Unicode("defaultdict").Raw(0x93).Op("EMPTY_TUPLE", "REDUCE").Bytes())
	f.Add([]byte("\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00K\x01K\x02\x86."))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pypickle.Loads(data)
		if err != nil {
			return
		}
		walk(v, 0)
	})
}
