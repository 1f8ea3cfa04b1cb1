package gokernels

import (
	"fmt"
	"sync"

	"github.com/gomlx/compute"
	gb "github.com/gomlx/compute/gobackend"
)

// ellProductData is the Data of a node rewritten by fuseELLProducts: nn/sparse's
// whole product. The rows of the bucket-ordered matrix cat (its parts one
// after another) are computed straight into the output rows that
// Gather(cat, pos) would copy them to, times the row scale when there is
// one: out[i] = cat[pos[i]] (· rs[i]).
type ellProductData struct {
	h, rows  int // columns; rows of cat
	parts    []ellPart
	pos      int // input index of pos [N, 1], or -1: out = cat
	rowScale int // input index of rs [N, 1], or -1
}

type partKind int

const (
	partSum   partKind = iota // a gather-sum chunk (gatherSumData; k = 1 is a plain gather)
	partZeros                 // rows of zeros
	partCopy                  // rows computed by another node, copied
)

// ellPart is one part of cat: rows [offset, offset+r).
type ellPart struct {
	kind      partKind
	offset, r int
	sum       gatherSumData
	x, idx, w int // input indices: the operand (partSum, partCopy), indices and weights (partSum; w -1: none)
}

// fuseELLProducts rewrites nn/sparse's product assembly, Gather(Concatenate(
// parts), pos) and the row scale after it, into one node: each part's rows
// (gather-sum chunks fused by fuseGatherSums, single-slot gathers, zero
// blocks) are computed straight into their output rows, so that neither
// the concatenated matrix nor the gathered one is written. Per value the
// operations are the unfused graph's. It runs after fuseGatherSums.
func fuseELLProducts(b *gb.Builder) {
	for _, f := range b.Functions {
		// Products gathered back to row order first, then the ones whose
		// rows stay in bucket order (nn/sparse's sorted layout): their
		// concatenation alone is the product.
		for _, withPos := range []bool{true, false} {
			u := uses(f)
			cons := consumers(f)
			alive := live(f)
			for _, g := range f.Nodes {
				var d *ellProductData
				var inputs []*gb.Node
				ok := false
				if withPos {
					d, inputs, ok = matchELLProduct(g, u)
				} else if g.OpType == compute.OpTypeConcatenate && alive[g] { // not one a product took
					d, inputs, ok = matchELLParts(g, g, nil, u)
				}
				if !ok {
					continue
				}
				foldRowScale(g, d, &inputs, u, cons).rewrite(inputs, d)
			}
		}
	}
}

// foldRowScale returns the node the fused product replaces: g, or the row
// scale Mul(g, rs [N, 1]) when that is g's only use (rs joins the inputs).
func foldRowScale(g *gb.Node, d *ellProductData, inputs *[]*gb.Node, u map[*gb.Node]int, cons map[*gb.Node][]*gb.Node) fusedTarget {
	if cs := cons[g]; len(cs) == 1 && u[g] == 1 {
		if m := cs[0]; m.OpType == compute.OpTypeMul && len(m.Inputs) == 2 && m.Shape.Equal(g.Shape) {
			rs := m.Inputs[1]
			if rs == g {
				rs = m.Inputs[0]
			}
			if rs != g && rs.Shape.DType == g.Shape.DType && rs.Shape.Rank() == 2 &&
				rs.Shape.Dimensions[0] == g.Shape.Dimensions[0] && rs.Shape.Dimensions[1] == 1 {
				d.rowScale = len(*inputs)
				*inputs = append(*inputs, rs)
				return fusedTarget{m}
			}
		}
	}
	return fusedTarget{g}
}

// fusedTarget is the node a fused product is written into.
type fusedTarget struct{ n *gb.Node }

func (t fusedTarget) rewrite(inputs []*gb.Node, d *ellProductData) {
	t.n.OpType, t.n.Inputs, t.n.Data = compute.OpTypeGather, inputs, d
	fusedELLProducts.Add(1)
}

// consumers lists, per node of f, the nodes that take it as an input.
func consumers(f *gb.Function) map[*gb.Node][]*gb.Node {
	c := make(map[*gb.Node][]*gb.Node, len(f.Nodes))
	for _, n := range f.Nodes {
		for _, in := range n.Inputs {
			c[in] = append(c[in], n)
		}
	}
	return c
}

// matchELLProduct matches Gather(Concatenate(parts, axis 0), pos) at g, with
// at least one gather-sum part.
func matchELLProduct(g *gb.Node, u map[*gb.Node]int) (*ellProductData, []*gb.Node, bool) {
	if g.OpType != compute.OpTypeGather || len(g.Inputs) != 2 || !isFloat(g.Shape.DType) || g.Shape.Rank() != 2 {
		return nil, nil, false
	}
	if _, ok := rowGatherOf(g); !ok {
		return nil, nil, false
	}
	cat, pos := g.Inputs[0], g.Inputs[1]
	if cat.OpType != compute.OpTypeConcatenate || u[cat] != 1 || pos.Shape.Rank() != 2 {
		return nil, nil, false
	}
	return matchELLParts(g, cat, pos, u)
}

// matchELLParts matches the parts of cat (Concatenate along axis 0) for the
// product g: out = cat[pos] (pos nil: out = cat), with at least one
// gather-sum part.
func matchELLParts(g, cat *gb.Node, pos *gb.Node, u map[*gb.Node]int) (*ellProductData, []*gb.Node, bool) {
	if cat.OpType != compute.OpTypeConcatenate || !isFloat(g.Shape.DType) || g.Shape.Rank() != 2 {
		return nil, nil, false
	}
	if axis, ok := cat.Data.(int); !ok || axis != 0 {
		return nil, nil, false
	}
	h := g.Shape.Dimensions[1]
	d := &ellProductData{h: h, rowScale: -1, pos: -1}
	var inputs []*gb.Node
	index := map[*gb.Node]int{}
	input := func(n *gb.Node) int {
		if i, ok := index[n]; ok {
			return i
		}
		index[n] = len(inputs)
		inputs = append(inputs, n)
		return index[n]
	}
	if pos != nil {
		d.pos = input(pos)
	}
	sums := 0
	for _, p := range cat.Inputs {
		if p.Shape.Rank() != 2 || p.Shape.Dimensions[1] != h {
			return nil, nil, false
		}
		part := ellPart{offset: d.rows, r: p.Shape.Dimensions[0], w: -1}
		switch {
		case isZeros(p):
			part.kind = partZeros
		default:
			if sd, xs, ok := sumPart(p, u); ok {
				part.kind, part.sum = partSum, *sd
				part.x, part.idx = input(xs[0]), input(xs[1])
				if len(xs) == 3 {
					part.w = input(xs[2])
				}
				sums++
			} else {
				part.kind, part.x = partCopy, input(p)
			}
		}
		d.parts = append(d.parts, part)
		d.rows += part.r
	}
	if sums == 0 || (pos == nil && d.rows != g.Shape.Dimensions[0]) {
		return nil, nil, false
	}
	return d, inputs, true
}

// sumPart matches a part that is a gather-sum: Reshape(ReduceSum node fused
// by fuseGatherSums) or a single-slot chunk Reshape([Mul](Gather(xp, idx
// [1, r, 1]), w [1, r, 1])). It returns its data and inputs (x, idx[, w]).
func sumPart(p *gb.Node, u map[*gb.Node]int) (*gatherSumData, []*gb.Node, bool) {
	if p.OpType != compute.OpTypeReshape || u[p] != 1 || len(p.Inputs) != 1 {
		return nil, nil, false
	}
	s := p.Inputs[0]
	if d, ok := s.Data.(*gatherSumData); ok && s.OpType == compute.OpTypeReduceSum && u[s] == 1 {
		return d, s.Inputs, true
	}
	// k = 1: the chunk is a gather (times a weight per slot).
	var w *gb.Node
	if s.OpType == compute.OpTypeMul && u[s] == 1 && len(s.Inputs) == 2 {
		a, c := s.Inputs[0], s.Inputs[1]
		if a.OpType != compute.OpTypeGather {
			a, c = c, a
		}
		s, w = a, c
	}
	if s.OpType != compute.OpTypeGather || u[s] != 1 || s.Shape.Rank() != 3 || s.Shape.Dimensions[0] != 1 {
		return nil, nil, false
	}
	if _, ok := rowGatherOf(s); !ok || s.Inputs[0].Shape.Rank() != 2 {
		return nil, nil, false
	}
	r, h := s.Shape.Dimensions[1], s.Shape.Dimensions[2]
	if w != nil && (w.Shape.DType != s.Shape.DType || w.Shape.Rank() != 3 || w.Shape.Size() != r) {
		return nil, nil, false
	}
	x := s.Inputs[0]
	d := newGatherSumData(1, r, h, w != nil)
	if base, ok := zeroPadded(x); ok {
		x, d.zeroRow = base, base.Shape.Dimensions[0]
	}
	ins := []*gb.Node{x, s.Inputs[1]}
	if w != nil {
		ins = append(ins, w)
	}
	return d, ins, true
}

// execELLProduct executes the nodes rewritten by fuseELLProducts, on up to
// the backend's parallelism in row blocks (each output row is computed by
// one task, so the result does not depend on the threads).
func execELLProduct(backend *gb.Backend, node *gb.Node, d *ellProductData, inputs []*gb.Buffer) (*gb.Buffer, error) {
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	// dest: the output rows each row of cat goes to (head, next: lists).
	head, next, err := destinations(d, inputs)
	if err != nil {
		return nil, err
	}
	idx := make([][]int32, len(d.parts))
	for p, part := range d.parts {
		if part.kind == partSum {
			if idx[p], err = indices32(inputs[part.idx]); err != nil {
				return nil, err
			}
		}
	}
	switch o := out.Flat.(type) {
	case []float32:
		run := &ellRun[float32]{d: d, inputs: inputs, out: o, head: head, next: next, idx: idx, sumRow: sumRowF32}
		run.parallel(backend)
	case []float64:
		run := &ellRun[float64]{d: d, inputs: inputs, out: o, head: head, next: next, idx: idx,
			sumRow: func(o, x []float64, idx []int32, w []float64, j int, d *gatherSumData, n int, zero []float64, _ [][]float64) {
				sumRowGeneric(o, x, idx, w, j, d, n, zero)
			}}
		run.parallel(backend)
	default:
		return nil, fmt.Errorf("gokernels: sparse product of dtype %s", out.RawShape.DType)
	}
	return out, nil
}

// ellBlockRows is the rows of one task of execELLProduct.
const ellBlockRows = 64

// ellRun is one execution of a fused product.
type ellRun[T float32 | float64] struct {
	d          *ellProductData
	inputs     []*gb.Buffer
	out        []T
	head, next []int32
	idx        [][]int32
	sumRow     func(o, x []T, idx []int32, w []T, j int, d *gatherSumData, n int, zero []T, srcs [][]T)
}

// parallel runs the row blocks on the calling goroutine and on the
// backend's idle workers.
func (e *ellRun[T]) parallel(backend *gb.Backend) {
	type block struct{ part, from, to int }
	var blocks []block
	for p, part := range e.d.parts {
		for from := 0; from < part.r; from += ellBlockRows {
			blocks = append(blocks, block{p, from, min(from+ellBlockRows, part.r)})
		}
	}
	// Scratch is reused from block to block (at most one per worker): a
	// fresh one per block was a tenth of GCN's epoch on Squirrel.
	var scratch sync.Pool
	scratch.New = func() any { return e.newScratch() }
	inParallel(backend, len(blocks), true, func(i int) {
		b := blocks[i]
		s := scratch.Get().(*ellScratch[T])
		e.rows(b.part, b.from, b.to, s)
		scratch.Put(s)
	})
}

type ellScratch[T float32 | float64] struct {
	zero, tmp []T
	srcs      [][]T
}

// newScratch is scratch for any block of the product: srcs as long as its
// widest part's rows (a hub part can have thousands of slots: allocated
// once per worker, not per block, which had cleared that much for every
// block, an eighth of a Pubmed epoch). zero stays zeros (it is read only).
func (e *ellRun[T]) newScratch() *ellScratch[T] {
	k := 1
	for _, part := range e.d.parts {
		k = max(k, part.sum.k)
	}
	return &ellScratch[T]{zero: make([]T, e.d.h), tmp: make([]T, e.d.h), srcs: make([][]T, k)}
}

// rows computes rows [from, to) of part p into their output rows.
func (e *ellRun[T]) rows(p, from, to int, s *ellScratch[T]) {
	part := &e.d.parts[p]
	h := e.d.h
	var rs []T
	if e.d.rowScale >= 0 {
		rs = e.inputs[e.d.rowScale].Flat.([]T)
	}
	var x, w []T
	n := 0
	if part.kind != partZeros {
		x = e.inputs[part.x].Flat.([]T)
		n = e.inputs[part.x].RawShape.Dimensions[0]
	}
	if part.w >= 0 {
		w = e.inputs[part.w].Flat.([]T)
	}
	for j := from; j < to; j++ {
		first := e.head[part.offset+j]
		if first < 0 {
			continue // no output row takes it
		}
		o := e.out[int(first)*h : (int(first)+1)*h]
		if e.next[first] >= 0 {
			o = s.tmp // several output rows take it: compute once
		}
		switch part.kind {
		case partSum:
			e.sumRow(o, x, e.idx[p], w, j, &part.sum, n, s.zero, s.srcs)
		case partZeros:
			clear(o)
		case partCopy:
			copy(o, x[j*h:(j+1)*h])
		}
		for i := first; i >= 0; i = e.next[i] {
			dst := e.out[int(i)*h : (int(i)+1)*h]
			if rs != nil {
				scaleRow(dst, o, rs, int(i))
			} else if &dst[0] != &o[0] {
				copy(dst, o)
			}
		}
	}
}

// scaleRow is dst = src · cs[at], value by value (float32 rows with
// vectors: as a plain loop it was a tenth of Cora's epoch).
func scaleRow[T float32 | float64](dst, src, cs []T, at int) {
	if d, ok := any(dst).([]float32); ok {
		scaleRowF32(d, any(src).([]float32), any(cs).([]float32), at)
		return
	}
	for i, v := range src {
		dst[i] = T(v * cs[at])
	}
}

// destinations lists, for each row c of cat, the output rows it goes to:
// head[c] the first (-1: none), next[i] the one after output row i.
func destinations(d *ellProductData, inputs []*gb.Buffer) (head, next []int32, err error) {
	head = make([]int32, d.rows)
	if d.pos < 0 { // out = cat
		next = make([]int32, d.rows)
		for c := range head {
			head[c], next[c] = int32(c), -1
		}
		return head, next, nil
	}
	pos, err := indices32(inputs[d.pos])
	if err != nil {
		return nil, nil, err
	}
	for c := range head {
		head[c] = -1
	}
	next = make([]int32, len(pos))
	for i := len(pos) - 1; i >= 0; i-- {
		c := clampIndex(int(pos[i]), d.rows)
		next[i], head[c] = head[c], int32(i)
	}
	return head, next, nil
}
