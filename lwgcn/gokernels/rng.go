package gokernels

import (
	"encoding/binary"
	"math/bits"

	"github.com/gomlx/compute"
	gb "github.com/gomlx/compute/gobackend"
)

// backendRNG is the backend's own RNGBitGenerator executor, run when the
// rng kernel is off.
var backendRNG gb.MultiOutputsNodeExecutor

func init() {
	backendRNG = gb.MultiOutputsNodeExecutorOf(compute.OpTypeRNGBitGenerator)
	gb.SetMultiOutputsNodeExecutor(compute.OpTypeRNGBitGenerator, execRNG)
}

// execRNG is the backend's RNGBitGenerator (a PCG seeded with the state's two
// words; its draws' bytes in little-endian order fill the output; the PCG's
// state after the draws is the new state) with each draw written as 8 bytes
// at once instead of one byte per loop iteration, in interleaved chains
// (fillBytes), and a large output filled in parts on the backend's idle
// workers, each part from the state advanced to its first draw (pcgAdvance).
// Same draws, same bytes, same new state.
func execRNG(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, inputsOwned []bool) ([]*gb.Buffer, error) {
	if !rng.On() {
		return backendRNG(backend, node, inputs, inputsOwned)
	}
	state := inputs[0]
	st, ok := state.Flat.([]uint64)
	if !ok || len(st) < 2 {
		return backendRNG(backend, node, inputs, inputsOwned)
	}
	data, err := backend.GetBuffer(node.MultiOutputsShapes[1])
	if err != nil {
		return nil, err
	}
	b, err := data.MutableBytes()
	if err != nil {
		return nil, err
	}
	hi, lo := fillBytesParallel(backend, b, st[0], st[1])
	if inputsOwned[0] {
		inputs[0] = nil // the state buffer is reused for the new state
	} else if state, err = backend.GetBuffer(node.MultiOutputsShapes[0]); err != nil {
		return nil, err
	} else {
		// The words after the PCG's two are carried over: a new buffer
		// from the pool holds whatever it last held (the backend's own
		// executor leaves them so, and the state, e.g. in a checkpoint,
		// would differ from run to run).
		copy(state.Flat.([]uint64)[2:], st[2:])
	}
	// The backend stores PCG.MarshalBinary's two state words (big-endian)
	// read back little-endian: byte-swapped, and so must we for its stream.
	st = state.Flat.([]uint64)
	st[0], st[1] = bits.ReverseBytes64(hi), bits.ReverseBytes64(lo)
	return []*gb.Buffer{state, data}, nil
}

// rngPartDraws is the fewest draws (8 bytes each) a part of a parallel fill
// takes (128 KB, about 30 µs of drawing): smaller outputs are filled on the
// calling goroutine, and Cora's dropout bits (693 KB) in 5 parts.
const rngPartDraws = 16 << 10

// fillBytesParallel fills b with the draws of the PCG at state (hi, lo), in
// parts of whole draws on the idle workers, and returns the state after the
// last draw.
func fillBytesParallel(backend *gb.Backend, b []byte, hi, lo uint64) (uint64, uint64) {
	draws := (len(b) + 7) / 8
	parts := min(draws/rngPartDraws, 8)
	if parts <= 1 {
		return fillBytes(b, hi, lo)
	}
	per := (draws + parts - 1) / parts
	inParallel(backend, parts, true, func(i int) {
		h, l := pcgAdvance(hi, lo, uint64(i*per))
		fillBytes(b[i*per*8:min((i+1)*per*8, len(b))], h, l)
	})
	return pcgAdvance(hi, lo, uint64(draws))
}

// PCG's 128-bit LCG (math/rand/v2's PCG: state = state·mul + inc mod 2¹²⁸,
// then the DXSM output of the new state).
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
	pcgDXSM  = 0xda942042e4dd58b5
)

// fillBytes fills b with the draws of the PCG at state (hi, lo), each as its
// 8 bytes in little-endian order (the last draw's low bytes for a tail
// shorter than 8), and returns the state after the last draw: math/rand/v2's
// PCG.Uint64 stream. A draw waits on the one before (a 128-bit multiply), so
// the draws go in 4 interleaved chains, each from the state advanced to its
// quarter of the buffer (pcgAdvance): 4 independent multiplies in flight.
func fillBytes(b []byte, hi, lo uint64) (uint64, uint64) {
	const lanes = 4
	draws := len(b) / 8
	q := draws / lanes
	if q >= 64 {
		h1, l1 := pcgAdvance(hi, lo, uint64(q))
		h2, l2 := pcgAdvance(h1, l1, uint64(q))
		h3, l3 := pcgAdvance(h2, l2, uint64(q))
		b0, b1, b2, b3 := b[:8*q], b[8*q:16*q], b[16*q:24*q], b[24*q:32*q]
		for i := 0; i < 8*q; i += 8 {
			var v0, v1, v2, v3 uint64
			hi, lo, v0 = pcgStep(hi, lo)
			h1, l1, v1 = pcgStep(h1, l1)
			h2, l2, v2 = pcgStep(h2, l2)
			h3, l3, v3 = pcgStep(h3, l3)
			binary.LittleEndian.PutUint64(b0[i:i+8], v0)
			binary.LittleEndian.PutUint64(b1[i:i+8], v1)
			binary.LittleEndian.PutUint64(b2[i:i+8], v2)
			binary.LittleEndian.PutUint64(b3[i:i+8], v3)
		}
		hi, lo, b = h3, l3, b[32*q:] // the last chain ends where the rest starts
	}
	n := len(b) &^ 7
	var v uint64
	for i := 0; i < n; i += 8 {
		hi, lo, v = pcgStep(hi, lo)
		binary.LittleEndian.PutUint64(b[i:i+8], v)
	}
	if n < len(b) {
		hi, lo, v = pcgStep(hi, lo)
		for i := n; i < len(b); i++ {
			b[i] = byte(v)
			v >>= 8
		}
	}
	return hi, lo
}

// pcgStep is one draw: the state after it and the value (PCG.Uint64).
func pcgStep(hi, lo uint64) (uint64, uint64, uint64) {
	h, l := bits.Mul64(lo, pcgMulLo)
	h += hi*pcgMulLo + lo*pcgMulHi
	var c uint64
	l, c = bits.Add64(l, pcgIncLo, 0)
	h, _ = bits.Add64(h, pcgIncHi, c)
	v := h ^ h>>32
	v *= pcgDXSM
	v ^= v >> 48
	return h, l, v * (l | 1)
}

// pcgAdvance returns the PCG state (hi, lo) advanced by n draws, in
// O(log n) steps (Brown, "Random number generation with arbitrary strides",
// 1994): the LCG's n-fold map is state·Mⁿ + C·(Mⁿ⁻¹ + ... + 1).
func pcgAdvance(hi, lo, n uint64) (uint64, uint64) {
	accMulHi, accMulLo, accIncHi, accIncLo := uint64(0), uint64(1), uint64(0), uint64(0)
	curMulHi, curMulLo, curIncHi, curIncLo := uint64(pcgMulHi), uint64(pcgMulLo), uint64(pcgIncHi), uint64(pcgIncLo)
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			accMulHi, accMulLo = mul128(accMulHi, accMulLo, curMulHi, curMulLo)
			accIncHi, accIncLo = mul128(accIncHi, accIncLo, curMulHi, curMulLo)
			accIncHi, accIncLo = add128(accIncHi, accIncLo, curIncHi, curIncLo)
		}
		// cur inc = (cur mul + 1)·cur inc; cur mul = cur mul².
		mh, ml := add128(curMulHi, curMulLo, 0, 1)
		curIncHi, curIncLo = mul128(mh, ml, curIncHi, curIncLo)
		curMulHi, curMulLo = mul128(curMulHi, curMulLo, curMulHi, curMulLo)
	}
	hi, lo = mul128(hi, lo, accMulHi, accMulLo)
	return add128(hi, lo, accIncHi, accIncLo)
}

// mul128 and add128 are products and sums mod 2¹²⁸ of (hi, lo) pairs.
func mul128(aHi, aLo, bHi, bLo uint64) (uint64, uint64) {
	hi, lo := bits.Mul64(aLo, bLo)
	return hi + aHi*bLo + aLo*bHi, lo
}

func add128(aHi, aLo, bHi, bLo uint64) (uint64, uint64) {
	lo, c := bits.Add64(aLo, bLo, 0)
	hi, _ := bits.Add64(aHi, bHi, c)
	return hi, lo
}
