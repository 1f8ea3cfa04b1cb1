package nn

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
)

// UseHashMasks reports whether dropout masks on the backend named
// backendName (compute.Backend.String) come from HashMask: on every backend
// but pure Go (whose own generator and dropoutmask kernel draw a mask at
// about 3 ns a value), unless buildinfo.EnvHashMasks turns it off (an
// invalid value panics with the variable's name).
func UseHashMasks(backendName string) bool {
	on, err := buildinfo.HashMasksOn()
	if err != nil {
		panicf("nn: %v", err)
	}
	return on && backendName != gobackend.BackendName
}

// HashMask draws a dropout mask of shape (0 where dropped, 1/(1-rate)
// elsewhere, no gradient) from the random state (GoMLX's three uint64 words)
// and returns the state after it with the mask: maskFromState on backends
// other than pure Go (UseHashMasks), from a counter-based hash of the state
// instead of the backend's RngBitGenerator (XLA CPU expands its Philox draws
// at about 13 ns a value: 141 ms of Cora's ~490 per LW-GCN epoch; with the
// hash the epoch was 14 % shorter, xla/README.md). The backends' masks
// differ either way (pure Go has its own generator); on one backend a run
// stays reproducible. With key k = state[0] and counter c = state[1]
// (GoMLX's state of three words), value i's bits are
//
//	h_i = fmix32(fmix32(lo(c+i)·0x9E3779B9 ⊕ lo(k)) ⊕ hi(c+i) ⊕ hi(k))
//
// (fmix32: MurmurHash3's finaliser, a bijection of 32 bits), kept where
// h_i >> 8 >= rate·2^24; the state after it has c + n. Ops only, so it is
// built in g or in a closure of g (a loop body) alike.
func HashMask(g *Graph, state *Node, shape shapes.Shape, rate float64) (*Node, *Node) {
	u32 := func(v uint32) *Node { return ConstAsDType(g, dtypes.Uint32, v) }
	u64 := func(v uint64) *Node { return ConstAsDType(g, dtypes.Uint64, v) }
	fmix := func(x *Node) *Node {
		x = BitwiseXor(x, BitwiseShiftRightLogical(x, u32(16)))
		x = Mul(x, u32(0x85ebca6b))
		x = BitwiseXor(x, BitwiseShiftRightLogical(x, u32(13)))
		x = Mul(x, u32(0xc2b2ae35))
		return BitwiseXor(x, BitwiseShiftRightLogical(x, u32(16)))
	}
	lo := func(x *Node) *Node { return ConvertDType(BitwiseAnd(x, u64(0xffffffff)), dtypes.Uint32) }
	hi := func(x *Node) *Node { return ConvertDType(BitwiseShiftRightLogical(x, u64(32)), dtypes.Uint32) }
	n := shape.Size()
	key := Slice(state, AxisRange(0, 1))
	ctr := Slice(state, AxisRange(1, 2))
	c := Add(Iota(g, shapes.Make(dtypes.Uint64, n), 0), ctr)
	h := fmix(BitwiseXor(Mul(lo(c), u32(0x9E3779B9)), lo(key)))
	h = fmix(BitwiseXor(BitwiseXor(h, hi(c)), hi(key)))
	threshold := uint32(min(rate*(1<<24), 1<<24))
	keep := GreaterOrEqual(BitwiseShiftRightLogical(h, u32(8)), u32(threshold))
	dt := shape.DType
	mask := Where(Reshape(keep, shape.Dimensions...), ConstAsDType(g, dt, 1/(1-rate)), ConstAsDType(g, dt, 0))
	next := Concatenate([]*Node{key, Add(ctr, u64(uint64(n))), Slice(state, AxisRange(2, 3))}, 0)
	return next, StopGradient(mask)
}
