package gokernels

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

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
// at once instead of one byte per loop iteration. Same draws, same bytes,
// same new state.
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
	pcg := rand.NewPCG(st[0], st[1])
	fillBytes(b, pcg)
	if inputsOwned[0] {
		inputs[0] = nil // the state buffer is reused for the new state
	} else if state, err = backend.GetBuffer(node.MultiOutputsShapes[0]); err != nil {
		return nil, err
	}
	// PCG.MarshalBinary is "pcg:" and the two state words, big-endian; the
	// backend reads them back little-endian, and so must we for its stream.
	m, err := pcg.MarshalBinary()
	if err != nil || len(m) != 20 || string(m[:4]) != "pcg:" {
		return nil, fmt.Errorf("gokernels: rng: unexpected PCG state encoding (%d bytes, %v)", len(m), err)
	}
	st = state.Flat.([]uint64)
	st[0] = binary.LittleEndian.Uint64(m[4:12])
	st[1] = binary.LittleEndian.Uint64(m[12:20])
	return []*gb.Buffer{state, data}, nil
}

// fillBytes fills b with pcg's draws, each as its 8 bytes in little-endian
// order (the last draw's low bytes for a tail shorter than 8).
func fillBytes(b []byte, pcg *rand.PCG) {
	n := len(b) &^ 7
	for i := 0; i < n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:i+8], pcg.Uint64())
	}
	if n < len(b) {
		v := pcg.Uint64()
		for i := n; i < len(b); i++ {
			b[i] = byte(v)
			v >>= 8
		}
	}
}
