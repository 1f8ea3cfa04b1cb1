package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// Fingerprint is the SHA-256 (hex) of what a model reads of g: node count,
// classes, features, labels and splits, and the edges when withEdges (the
// name is left out). Caches and checkpoints use it to tell one graph's
// content from another's.
func (g *Graph) Fingerprint(withEdges bool) string {
	h := sha256.New()
	ints := func(xs ...int) {
		for _, x := range xs {
			binary.Write(h, binary.LittleEndian, int64(x))
		}
	}
	i32s := func(xs []int32) {
		ints(len(xs))
		binary.Write(h, binary.LittleEndian, xs)
	}
	ints(g.NumNodes(), g.NumClasses())
	if f := g.Features(); f != nil {
		ints(f.NumRows(), f.NumCols())
		if d := f.Data(); d != nil {
			floats(h, d)
		} else {
			rows, cols, vals := f.COO()
			i32s(rows)
			i32s(cols)
			floats(h, vals)
		}
	}
	i32s(g.Labels())
	ints(len(g.Splits()))
	for _, s := range g.Splits() {
		i32s(s.Train)
		i32s(s.Val)
		i32s(s.Test)
	}
	if withEdges {
		i32s(g.Src())
		i32s(g.Dst())
	}
	return hex.EncodeToString(h.Sum(nil))
}

func floats(h hash.Hash, xs []float32) {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	h.Write(b)
}
