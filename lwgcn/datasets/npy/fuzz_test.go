package npy_test

import (
	"bytes"
	"testing"

	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
)

func npySeeds() [][]byte {
	return [][]byte{
		fx.NPY("<f4", []int{2, 2}, true, fx.Float32s([]float32{1, 2, 3, 4})),
		fx.NPY("<i8", []int{3}, false, fx.Int64s([]int64{1, -2, 3})),
		fx.NPY("|b1", []int{2, 3}, false, []byte{1, 0, 1, 0, 0, 1}),
		fx.NPY("|u1", []int{}, false, []byte{7}),
		fx.NPY("<f2", []int{1}, false, []byte{0, 0x3c}),
		fx.NPY("|O", []int{1}, false, []byte("\x80\x02N.")),
	}
}

// exercise reads every typed view; it must never panic.
func exercise(a *npy.Array) {
	a.Float32s()
	a.Float64s()
	a.Int64s()
	a.Bools()
	_ = a.Len()
}

func FuzzRead(f *testing.F) {
	for _, s := range npySeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := npy.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		exercise(a)
	})
}

func FuzzNPZ(f *testing.F) {
	seeds := npySeeds()
	f.Add(fx.NPZ(false, fx.Member{Name: "a", Data: seeds[0]}, fx.Member{Name: "b", Data: seeds[2]}))
	f.Add(fx.NPZ(true, fx.Member{Name: "x", Data: seeds[1]}))
	f.Fuzz(func(t *testing.T, data []byte) {
		z, err := npy.NewNPZ(bytes.NewReader(data), int64(len(data)), "fuzz.npz")
		if err != nil {
			return
		}
		for _, k := range z.Keys() {
			if a, err := z.Array(k); err == nil {
				exercise(a)
			}
		}
	})
}
