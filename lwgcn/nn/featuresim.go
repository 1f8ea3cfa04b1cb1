package nn

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// FeatureSimilarity computes cosine similarities between the rows of a
// feature matrix binarised (every non-zero becomes 1), as SimP-GCN's code
// does (sklearn's cosine_similarity on features != 0), one row at a time:
// the similarities of row i with every node come from an inverted index
// (feature -> nodes) in O(Σ_{f ∈ i} df(f)), and nothing N x N is ever
// stored. A row with no non-zero has similarity 0 with every node
// (sklearn's convention for zero vectors), itself included.
type FeatureSimilarity struct {
	n        int
	rowPtr   []int32 // binarised CSR: row i's features
	cols     []int32
	featPtr  []int32 // inverted index: feature f's nodes
	featRows []int32
	norm     []float64 // sqrt(number of non-zeros) per row
}

// NewFeatureSimilarity indexes the binarised features.
func NewFeatureSimilarity(f *graph.Features) (*FeatureSimilarity, error) {
	if f == nil {
		return nil, fmt.Errorf("nn: feature similarity of nil features")
	}
	n, d := f.NumRows(), f.NumCols()
	rowPtr, colIdx, vals := f.ToSparse().CSR()
	s := &FeatureSimilarity{n: n, rowPtr: make([]int32, n+1), norm: make([]float64, n)}
	count := make([]int32, d+1)
	for i := range n {
		for p := rowPtr[i]; p < rowPtr[i+1]; p++ {
			if vals[p] != 0 {
				s.cols = append(s.cols, colIdx[p])
				count[colIdx[p]+1]++
			}
		}
		s.rowPtr[i+1] = int32(len(s.cols))
		s.norm[i] = math.Sqrt(float64(s.rowPtr[i+1] - s.rowPtr[i]))
	}
	for j := range d {
		count[j+1] += count[j]
	}
	s.featPtr = slices.Clone(count)
	s.featRows = make([]int32, len(s.cols))
	for i := range n {
		for p := s.rowPtr[i]; p < s.rowPtr[i+1]; p++ {
			f := s.cols[p]
			s.featRows[count[f]] = int32(i)
			count[f]++
		}
	}
	return s, nil
}

// rowScan holds one worker's scratch space: shared-feature counts per node
// and the list of nodes touched.
type rowScan struct {
	acc     []int32
	touched []int32
}

// row fills sc with the number of shared features between row i and every
// node sharing at least one (sc.touched, unsorted).
func (s *FeatureSimilarity) row(i int, sc *rowScan) {
	for _, j := range sc.touched {
		sc.acc[j] = 0
	}
	sc.touched = sc.touched[:0]
	for p := s.rowPtr[i]; p < s.rowPtr[i+1]; p++ {
		f := s.cols[p]
		for _, j := range s.featRows[s.featPtr[f]:s.featPtr[f+1]] {
			if sc.acc[j] == 0 {
				sc.touched = append(sc.touched, j)
			}
			sc.acc[j]++
		}
	}
}

func (s *FeatureSimilarity) cos(i int, j int32, shared int32) float64 {
	if shared == 0 {
		return 0
	}
	return float64(shared) / (s.norm[i] * s.norm[j])
}

// forRows runs fn for every row on up to GOMAXPROCS workers, each with its
// own scratch space; fn must only write state owned by row i.
func (s *FeatureSimilarity) forRows(fn func(i int, sc *rowScan)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), s.n))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &rowScan{acc: make([]int32, s.n)}
			for i := w; i < s.n; i += workers {
				fn(i, sc)
			}
		}()
	}
	wg.Wait()
}

type scored struct {
	j   int32
	sim float64
}

// byDescendingSim orders by similarity, high first, then by node index.
func byDescendingSim(a, b scored) int {
	if c := cmp.Compare(b.sim, a.sim); c != 0 {
		return c
	}
	return cmp.Compare(a.j, b.j)
}

// KNN returns SimP-GCN's feature graph: row i keeps the k other nodes most
// similar to i (the diagonal is excluded, as the official code zeroes it
// before its per-row argsort), with their similarities as values; entries of
// similarity 0 are dropped (they are zeros of the official dense matrix
// too). Ties at the k-th place go to the lower node index (the official
// argsort breaks them arbitrarily). The matrix is not symmetric. It is
// normalised as the official preprocess_adj_noloop does: D^-1/2 S D^-1/2,
// D the row sums of S (no self loops added).
func (s *FeatureSimilarity) KNN(k int) (*sparse.SparseMatrix, error) {
	if k < 1 {
		return nil, fmt.Errorf("nn: kNN graph needs k >= 1, got %d", k)
	}
	best := make([][]scored, s.n)
	s.forRows(func(i int, sc *rowScan) {
		s.row(i, sc)
		cand := make([]scored, 0, len(sc.touched))
		for _, j := range sc.touched {
			if int(j) != i {
				cand = append(cand, scored{j, s.cos(i, j, sc.acc[j])})
			}
		}
		slices.SortFunc(cand, byDescendingSim)
		best[i] = cand[:min(k, len(cand))]
	})
	var rows, cols []int32
	var vals []float32
	sums := make([]float64, s.n)
	for i, b := range best {
		for _, e := range b {
			rows, cols, vals = append(rows, int32(i)), append(cols, e.j), append(vals, float32(e.sim))
			sums[i] += float64(float32(e.sim))
		}
	}
	m, err := sparse.NewSparseMatrix(s.n, s.n, rows, cols, vals)
	if err != nil {
		return nil, err
	}
	scale := make([]float32, s.n)
	for i, x := range sums {
		if x > 0 {
			scale[i] = float32(1 / math.Sqrt(x))
		}
	}
	m.RowScale = sparse.MulScales(m.RowScale, scale)
	m.ColScale = scale
	return m, nil
}

// SimilarityPairs are node pairs with their feature similarity: the
// regression targets of SimP-GCN's self-supervised task.
type SimilarityPairs struct {
	A, B []int32 // A[p] < B[p], sorted by (A, B), distinct
	Sim  []float32
}

// ExtremePairs returns SimP-GCN's self-supervised pairs (AttrSim in the
// official code, k = 5 there): for every node i, the k nodes least similar
// to i and the k+1 most similar (i itself usually among them), as unordered
// pairs without self pairs and without duplicates, each with its cosine
// similarity. Ties: the most similar go by lower index; the least similar —
// typically many nodes share no feature with i — are drawn at random among
// the tied ones with a generator seeded by (seed, i), where the official
// argsort picks arbitrarily (the official code draws them once per dataset
// and caches them, so a fixed seed is the faithful choice). On graphs with
// fewer than 2k+1 nodes the two lists overlap.
func (s *FeatureSimilarity) ExtremePairs(k int, seed uint64) (*SimilarityPairs, error) {
	if k < 1 {
		return nil, fmt.Errorf("nn: similarity pairs need k >= 1, got %d", k)
	}
	chosen := make([][]scored, s.n)
	s.forRows(func(i int, sc *rowScan) {
		s.row(i, sc)
		all := make([]scored, 0, len(sc.touched)+1)
		self := false
		for _, j := range sc.touched {
			all = append(all, scored{j, s.cos(i, j, sc.acc[j])})
			self = self || int(j) == i
		}
		if !self { // a featureless row: similarity 0 with itself
			all = append(all, scored{int32(i), 0})
		}
		slices.SortFunc(all, byDescendingSim)
		var pick []scored
		for _, e := range all {
			if len(pick) == k+1 || e.sim == 0 {
				break
			}
			pick = append(pick, e)
		}
		// Least similar: the zero-similarity nodes (every node not touched,
		// plus touched ones at 0) first, at random, then the smallest
		// positive similarities.
		h := fnv.New64a()
		fmt.Fprintf(h, "%d", i)
		rng := rand.New(rand.NewPCG(seed, h.Sum64()))
		isTouched := func(j int32) bool { return sc.acc[j] > 0 }
		// A featureless i is itself among the untouched zeros: a candidate
		// like the others (self pairs are dropped below).
		zeros := s.n - len(sc.touched)
		var low []scored
		if zeros >= k {
			// Rejection-sample k distinct untouched nodes.
			got := map[int32]bool{}
			for len(low) < k {
				j := int32(rng.IntN(s.n))
				if isTouched(j) || got[j] {
					continue
				}
				got[j] = true
				low = append(low, scored{j, 0})
			}
		} else {
			for j := range int32(s.n) {
				if !isTouched(j) {
					low = append(low, scored{j, 0})
				}
			}
			asc := slices.Clone(all)
			slices.Reverse(asc)
			for _, e := range asc {
				if len(low) == k {
					break
				}
				if isTouched(e.j) {
					low = append(low, e)
				}
			}
		}
		if len(pick) < k+1 { // fewer than k+1 positive: fill with the next best (zeros)
			for _, e := range low {
				if len(pick) == k+1 {
					break
				}
				pick = append(pick, e)
			}
		}
		chosen[i] = append(pick, low...)
	})
	type pair struct{ a, b int32 }
	sims := map[pair]float32{}
	for i, list := range chosen {
		for _, e := range list {
			if int(e.j) == i {
				continue
			}
			p := pair{min(int32(i), e.j), max(int32(i), e.j)}
			sims[p] = float32(e.sim)
		}
	}
	keys := make([]pair, 0, len(sims))
	for p := range sims {
		keys = append(keys, p)
	}
	slices.SortFunc(keys, func(x, y pair) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
	out := &SimilarityPairs{A: make([]int32, len(keys)), B: make([]int32, len(keys)), Sim: make([]float32, len(keys))}
	for p, key := range keys {
		out.A[p], out.B[p], out.Sim[p] = key.a, key.b, sims[key]
	}
	return out, nil
}
