package sparse

import (
	"runtime"
	"slices"
)

// Hub columns. On graphs with hubs most of an ELL product's gathered rows
// are copies of a few operand rows (Squirrel: 253 of its 5,201 nodes are
// the neighbour aggregated from in 76% of its edges). The columns of A
// with at least DenseColumnRatio·NumRows entries are therefore multiplied
// as one dense block: A·x = D·x[hubs] + A_rest·x, with D [NumRows, k] and
// A_rest the other entries in the usual ELL layout; the transposed product
// gives the hub rows of Aᵀ·v as Dᵀ·v. (When a matrix's rows hold more of
// its entries in such lines, the roles swap: hub rows of A, hub columns of
// Aᵀ.) A dense column costs NumRows multiply-adds per feature, a gathered
// entry (gather, then the sum over the slots) about 17 multiply-adds:
// measured with the Go backend on the 2-core machine of docs/RESULTS.md in
// a full LW-GCN epoch on Squirrel (the hub blocks' Dots at about 0.065 ns
// per multiply-add, ELL at 1.1 ns per gathered value). There, at one
// thread, the hub form made the epoch 1.11x faster (Chameleon 1.04x;
// medians of 40 epochs alternating with the plain form in one process); at
// two threads 0.94x (the ELL chunks run in parallel, the hub Dots less
// well).
//
// Off by default (DenseColumnMaxThreads = 0): the hub form sums in another
// order than the plain one, so a run's float32 results, and after hundreds
// of epochs of best-epoch selection its accuracies, would depend on the
// thread count it ran with (LW-GCN on Texas, split 4: test 86.5 % at
// GOMAXPROCS=1 with hubs, 83.8 % without). With it off, a seed gives the
// same run at any GOMAXPROCS (tested). Set DenseColumnMaxThreads = 1 to
// trade that for the one-thread speed-up.
//
// SpMat.Mul uses the hub layouts when the matrix has them and its entry
// values are not overridden (WithVals); the other products (per-run values,
// attention weights, entry gradients) use the full ELL layouts.
var (
	// DenseColumnRatio: columns with at least this fraction of NumRows
	// entries are hubs.
	DenseColumnRatio = 1.0 / 17
	// DenseColumnMinEntries: hub columns are used only when they hold at
	// least this many entries per row of A in all (below it the extra Dot,
	// gather and sum cost more than the gathers they save).
	DenseColumnMinEntries = 1.0
	// DenseColumnMaxThreads: hub layouts are built only when GOMAXPROCS is
	// at most this (0: never, the default; see above).
	DenseColumnMaxThreads = 0
)

// hubColumns returns the hub columns of a numRows x numCols matrix with
// entries in the columns cols (ascending) and the number of entries they
// hold, or nil when they do not pay.
func hubColumns(numRows, numCols int, cols []int32) (hubs []int32, covered int) {
	if numRows == 0 || len(cols) == 0 {
		return nil, 0
	}
	count := make([]int, numCols)
	for _, c := range cols {
		count[c]++
	}
	min := max(1, int(DenseColumnRatio*float64(numRows)+0.999999))
	for c, n := range count {
		if n >= min {
			hubs = append(hubs, int32(c))
			covered += n
		}
	}
	if len(hubs) == 0 || float64(covered) < DenseColumnMinEntries*float64(numRows) {
		return nil, 0
	}
	return hubs, covered
}

// hubLines returns the hub columns of A, or its hub rows (byRows; hub
// columns of Aᵀ, which the product A·x computes as dense rows), whichever
// hold more entries; nil when neither pays.
func hubLines(numRows, numCols int, rows, cols []int32) (hubs []int32, byRows bool) {
	if runtime.GOMAXPROCS(0) > DenseColumnMaxThreads {
		return nil, false
	}
	hc, nc := hubColumns(numRows, numCols, cols)
	hr, nr := hubColumns(numCols, numRows, rows)
	if nr > nc {
		return hr, true
	}
	return hc, false
}

// setHubLayouts adds under prefix the hub form of the numRows x numCols
// matrix A with entries (rows[i], cols[i], vals[i]) (vals nil: ones), for
// hub columns or, byRows, hub rows (see hubLayouts); prefix/present = 1.
// padded: the sorted-padded form (SetSorted), operands and results with a
// trailing zero row.
func setHubLayouts(in HostInputs, prefix string, numRows, numCols int, rows, cols []int32, vals []float32,
	hubs []int32, padded, byRows bool) {
	r, c := "/ell/r", "/ell/c"
	if byRows { // the layouts of Aᵀ with hub columns, swapped
		numRows, numCols, rows, cols, r, c = numCols, numRows, cols, rows, c, r
	}
	hubLayouts(in, prefix+r, prefix+c, numRows, numCols, rows, cols, vals, hubs, padded)
	in.SetMeta(prefix+"/present", 1)
}

// hubLayouts adds the hub form of the numRows x numCols matrix M with hub
// columns hubs: under rp, the layout of M·x: the ELL layout of its non-hub
// entries (entry indices still refer to all the entries, so stored values
// apply), rp/hubidx [k, 1] and D = rp/hubdense [out, k] (out = numRows, plus
// a zero row when padded); under cp, the layout of Mᵀ·v: the ELL layout of
// the non-hub entries of Mᵀ with the hub rows first (cp/hubrows = k), which
// Dᵀ = cp/hubdenset [k, numRows+1] (over the padded operand) gives.
func hubLayouts(in HostInputs, rp, cp string, numRows, numCols int, rows, cols []int32, vals []float32,
	hubs []int32, padded bool) {
	k := len(hubs)
	hubPos := make([]int32, numCols)
	for i := range hubPos {
		hubPos[i] = -1
	}
	for j, c := range hubs {
		hubPos[c] = int32(j)
	}
	outRows := numRows
	if padded {
		outRows++
	}
	d := make([]float32, outRows*k)
	dt := make([]float32, k*(numRows+1))
	var rest []int32
	for i := range rows {
		j := hubPos[cols[i]]
		if j < 0 {
			rest = append(rest, int32(i))
			continue
		}
		v := float32(1)
		if vals != nil {
			v = vals[i]
		}
		d[int(rows[i])*k+int(j)] += v
		dt[int(j)*(numRows+1)+int(rows[i])] += v
	}
	rr, rc := make([]int32, len(rest)), make([]int32, len(rest))
	for t, i := range rest {
		rr[t], rc[t] = rows[i], cols[i]
	}
	er := buildELL(numRows, numCols, rr, rc)
	ec := buildELL(numCols, numRows, rc, rr)
	remapEntries(er, rest, len(rows))
	remapEntries(ec, rest, len(rows))
	hubRowsFirst(ec, hubs)
	if padded {
		for _, e := range []*ell{er, ec} {
			if isIdentity(e.Pos) {
				e.Pos = nil
			} else {
				e.Pos = append(e.Pos, int32(len(e.Pos))) // the zero row stays last
			}
		}
		in.SetMeta(rp+"/padded", 1)
		in.SetMeta(cp+"/padded", 1)
	}
	setELL(in, rp, er, vals)
	setELL(in, cp, ec, vals)
	in.SetInt32(rp+"/hubidx", hubs, k, 1)
	in.SetFloat(rp+"/hubdense", d, outRows, k)
	in.SetFloat(cp+"/hubdenset", dt, k, numRows+1)
	in.SetMeta(cp+"/hubrows", k)
}

// remapEntries makes the entry indices of e (built on the entries rest of a
// matrix with nnz entries) refer to all the entries; padding slots point to
// nnz.
func remapEntries(e *ell, rest []int32, nnz int) {
	for _, chunks := range e.Entry {
		for _, ch := range chunks {
			for i, en := range ch {
				if int(en) < len(rest) {
					ch[i] = rest[en]
				} else {
					ch[i] = int32(nnz)
				}
			}
		}
	}
}

// hubRowsFirst moves the rows hubs (rows without entries in e) to the first
// positions of e's order, ahead of the other empty rows, and leaves in
// e.Empty only the latter.
func hubRowsFirst(e *ell, hubs []int32) {
	isHub := make([]bool, len(e.Pos))
	for _, h := range hubs {
		isHub[h] = true
	}
	// Empty rows hold positions 0..Empty-1; keep the others' relative order.
	empty := make([]int32, e.Empty) // position -> row
	for r, p := range e.Pos {
		if int(p) < e.Empty {
			empty[p] = int32(r)
		}
	}
	for j, h := range hubs {
		if int(e.Pos[h]) >= e.Empty {
			panicf("nn: hub row %d has entries outside the dense block", h)
		}
		e.Pos[h] = int32(j)
	}
	next := int32(len(hubs))
	for _, r := range empty {
		if !isHub[r] {
			e.Pos[r] = next
			next++
		}
	}
	e.Empty -= len(hubs)
}

// sortedHubOrder returns the node order (node -> position) of SetSorted
// for a square matrix with hubs: the bucket order of the rows of the hub
// form's product A·x, so that it needs no reordering: the non-hub entries'
// row lengths, after the hub rows when the hubs are rows.
func sortedHubOrder(n int, rows, cols, hubs []int32, byRows bool) []int32 {
	isHub := make([]bool, n)
	for _, h := range hubs {
		isHub[h] = true
	}
	var rr, rc []int32
	for i := range rows {
		if (byRows && !isHub[rows[i]]) || (!byRows && !isHub[cols[i]]) {
			rr, rc = append(rr, rows[i]), append(rc, cols[i])
		}
	}
	e := buildELL(n, n, rr, rc)
	if byRows {
		hubRowsFirst(e, hubs)
	}
	return e.Pos
}

// relabel returns the positions pos[v] of the nodes hubs, ascending.
func relabel(hubs, pos []int32) []int32 {
	out := make([]int32, len(hubs))
	for j, h := range hubs {
		out[j] = pos[h]
	}
	slices.Sort(out)
	return out
}
