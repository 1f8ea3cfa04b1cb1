package gokernels

import (
	"math"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeWhere, gb.PriorityUser, execDropoutMask)
}

// dropoutMaskData is the Data of a Where node rewritten by fuseDropoutMasks:
// out = (min(|float32(bits)·scale|, top) >= rate) ? keep : drop, from the
// random bits [uint32] alone.
type dropoutMaskData struct {
	scale, top, rate, keep, drop float32
	threshold                    uint64 // see setThreshold
}

// fuseDropoutMasks rewrites GoMLX's RandomUniform (float32: ConvertDType of
// the uint32 bits, times 2⁻³², Abs, Min with the largest float below 1)
// compared with a rate and turned into a mask by Where (nn.DropoutMask) —
// six passes — into one node that reads the bits. The operations per value
// are the same.
func fuseDropoutMasks(b *gb.Builder) { rewrite(b, &fusedDropoutMasks, matchDropoutMask) }

// matchDropoutMask matches the pattern of fuseDropoutMasks at w; the one
// input is the bits.
func matchDropoutMask(w *gb.Node, u map[*gb.Node]int) (*dropoutMaskData, []*gb.Node, bool) {
	if w.OpType != compute.OpTypeWhere || w.Shape.DType != dtypes.Float32 || len(w.Inputs) != 3 {
		return nil, nil, false
	}
	var d dropoutMaskData
	var ok1, ok2 bool
	if d.keep, ok1 = scalarF32(w.Inputs[1]); !ok1 {
		return nil, nil, false
	}
	if d.drop, ok2 = scalarF32(w.Inputs[2]); !ok2 {
		return nil, nil, false
	}
	ge := w.Inputs[0]
	if ge.OpType != compute.OpTypeGreaterOrEqual || u[ge] != 1 || !ge.Shape.Equal(shapeAs(w.Shape, dtypes.Bool)) {
		return nil, nil, false
	}
	var ok bool
	if d.rate, ok = scalarF32(ge.Inputs[1]); !ok {
		return nil, nil, false
	}
	mn := skipIdentities(ge.Inputs[0], u)
	if mn == nil || mn.OpType != compute.OpTypeMin || u[mn] != 1 || !mn.Shape.Equal(w.Shape) {
		return nil, nil, false
	}
	abs, top := mn.Inputs[0], mn.Inputs[1]
	if d.top, ok = scalarF32(top); !ok {
		abs, top = top, abs
		if d.top, ok = scalarF32(top); !ok {
			return nil, nil, false
		}
	}
	if abs.OpType != compute.OpTypeAbs || u[abs] != 1 || !abs.Shape.Equal(w.Shape) {
		return nil, nil, false
	}
	mul := abs.Inputs[0]
	if mul.OpType != compute.OpTypeMul || u[mul] != 1 || !mul.Shape.Equal(w.Shape) {
		return nil, nil, false
	}
	conv, sc := mul.Inputs[0], mul.Inputs[1]
	if d.scale, ok = scalarF32(sc); !ok {
		conv, sc = sc, conv
		if d.scale, ok = scalarF32(sc); !ok {
			return nil, nil, false
		}
	}
	if conv.OpType != compute.OpTypeConvertDType || u[conv] != 1 || !conv.Shape.Equal(w.Shape) {
		return nil, nil, false
	}
	bits := conv.Inputs[0]
	if !bits.Shape.Equal(shapeAs(w.Shape, dtypes.Uint32)) || !(d.scale > 0) || math.IsInf(float64(d.scale), 0) {
		return nil, nil, false // a threshold on the bits needs a positive, finite scale
	}
	d.setThreshold()
	return &d, []*gb.Node{bits}, true
}

// skipIdentities returns n, or the input of a chain of single-use Identity
// nodes (GoMLX's StopGradient leaves none, but a backend may).
func skipIdentities(n *gb.Node, u map[*gb.Node]int) *gb.Node {
	for n.OpType == compute.OpTypeIdentity {
		if u[n] != 1 || len(n.Inputs) != 1 {
			return nil
		}
		n = n.Inputs[0]
	}
	return n
}

// execDropoutMask executes the nodes rewritten by fuseDropoutMasks.
func execDropoutMask(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*dropoutMaskData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	dropoutMaskF32(out.Flat.([]float32), inputs[0].Flat.([]uint32), d)
	return out, nil
}

// keeps is the unfused chain's predicate for one draw: each step rounds to
// float32 as the separate ops do (bits are finite, so Min orders no NaN).
func (d *dropoutMaskData) keeps(b uint32) bool {
	v := float32(float32(b) * d.scale)
	if v < 0 {
		v = -v
	}
	return min(v, d.top) >= d.rate
}

// setThreshold finds the least draw the mask keeps: with a positive scale
// every step of keeps is non-decreasing in b, so keeps(b) is b >= threshold
// (2³² when no draw is kept). A binary search over the uint32 range, once
// per compiled node.
func (d *dropoutMaskData) setThreshold() {
	lo, hi := uint64(0), uint64(1)<<32 // keeps(hi-1) may be false; hi is "never"
	for lo < hi {
		mid := (lo + hi) / 2
		if d.keeps(uint32(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	d.threshold = lo
}

// dropoutMaskGeneric is the fused computation: a draw is kept when it is at
// least the threshold (the same decisions as keeps, without its float
// steps and without a branch on the random outcome).
func dropoutMaskGeneric(out []float32, bits []uint32, d *dropoutMaskData) {
	keep, drop := math.Float32bits(d.keep), math.Float32bits(d.drop)
	for i, b := range bits {
		m := uint32(0)
		if uint64(b) >= d.threshold {
			m = ^uint32(0)
		}
		out[i] = math.Float32frombits(keep&m | drop&^m)
	}
}
