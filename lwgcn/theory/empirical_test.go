package theory

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// tinyGraph: 4 nodes, features rows [1,0],[0,2],[3,3],[5,1], labels 0,1,1,0,
// in-neighbours of 0: {1,2}, of 1: {0}, of 2: {0,1,3}, of 3: none.
func tinyGraph(t *testing.T) (*graph.Graph, Matrix) {
	t.Helper()
	x := []float32{1, 0, 0, 2, 3, 3, 5, 1}
	f, err := graph.NewDenseFeatures(4, 2, x)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.MustNew(graph.Spec{NumNodes: 4, Src: []int32{1, 2, 0, 0, 1, 3}, Dst: []int32{0, 0, 1, 2, 2, 2},
		Features: f, Labels: []int32{0, 1, 1, 0}})
	m, err := ProjectFeatures(f, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g, m
}

func TestAggregations(t *testing.T) {
	g, x := tinyGraph(t)
	if x.Cols != 2 || x.Row(3)[0] != 5 {
		t.Fatalf("unprojected features %+v", x)
	}
	z, err := MeanAggregate(g, x, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.5, 2.5, 1, 0, 2, 1, 0, 0} // node 2: ([1,0]+[0,2]+[5,1])/3
	for i, w := range want {
		if !near(z.Data[i], w, 1e-12) {
			t.Fatalf("mean aggregate %v, want %v", z.Data, want)
		}
	}
	z, _ = MeanAggregate(g, x, true)
	want = []float64{4.0 / 3, 5.0 / 3, 0.5, 1, 9.0 / 4, 6.0 / 4, 5, 1}
	for i, w := range want {
		if !near(z.Data[i], w, 1e-12) {
			t.Fatalf("mean aggregate with self %v, want %v", z.Data, want)
		}
	}
	// Label-wise with labels 0,1,1,0 and node 1 unlabeled for aggregation.
	lw, err := LabelWiseAggregate(g, x, []int32{0, graph.Unlabeled, 1, 0}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want = []float64{
		1, 0, 0, 0, 3, 3, // node 0: class-1 neighbour 2 only (1 skipped)
		0, 2, 1, 0, 0, 0, // node 1: class-0 neighbour 0
		3, 3, 3, 0.5, 0, 0, // node 2: class-0 neighbours 0 and 3; 1 skipped
		5, 1, 0, 0, 0, 0, // node 3: no neighbours
	}
	for i, w := range want {
		if !near(lw.Data[i], w, 1e-12) {
			t.Fatalf("label-wise aggregate %v, want %v", lw.Data, want)
		}
	}
	if _, err := LabelWiseAggregate(g, x, []int32{0}, 2); err == nil || !strings.Contains(err.Error(), "1 labels for 4 nodes") {
		t.Errorf("short labels: %v", err)
	}
}

func TestFisherRatios(t *testing.T) {
	// One column; class 0 values {0, 2} (mean 1, var 2), class 1 values
	// {4, 6, 8} (mean 6, var 4): ratio 25/3.
	x := Matrix{Rows: 5, Cols: 2, Data: []float64{0, 7, 2, 7, 4, 7, 6, 7, 8, 7}}
	f, err := FisherRatios(x, []int32{0, 0, 1, 1, 1}, 2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !near(f.Pair[0][1], 25.0/3, 1e-12) || !near(f.Mean, 25.0/3, 1e-12) || f.Pair[1][0] != f.Pair[0][1] {
		t.Errorf("fisher %+v, want 25/3 (constant column skipped)", f)
	}
	if !near(f.Blocks[0], 25.0/3, 1e-12) || !math.IsNaN(f.Blocks[1]) {
		t.Errorf("blocks %v", f.Blocks)
	}
}

// blobs: two classes on one feature, N(-1,1) and N(+1,1); Bayes accuracy Phi(1).
func blobs(n int, rng *rand.Rand) (Matrix, []int32, graph.Split) {
	x := NewMatrix(n, 3)
	labels := make([]int32, n)
	var sp graph.Split
	for v := range n {
		y := int32(v % 2)
		labels[v] = y
		x.Row(v)[0] = 2*float64(y) - 1 + rng.NormFloat64()
		x.Row(v)[1] = rng.NormFloat64() // noise column
		x.Row(v)[2] = 3                 // constant column
		switch {
		case v < n/2:
			sp.Train = append(sp.Train, int32(v))
		case v < 3*n/4:
			sp.Val = append(sp.Val, int32(v))
		default:
			sp.Test = append(sp.Test, int32(v))
		}
	}
	return x, labels, sp
}

func TestClassifiersReachBayesAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	x, labels, sp := blobs(16000, rng)
	bayes := 0.5 * (1 + math.Erf(1/math.Sqrt2)) // Phi(1) = 0.8413
	_, acc, err := TrainLogistic(x, labels, 2, sp, ClassifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 4,000 test nodes: binomial SE 0.006.
	if math.Abs(acc.Test-bayes) > 0.025 || math.Abs(acc.Train-bayes) > 0.02 {
		t.Errorf("logistic accuracy %+v, Bayes %v", acc, bayes)
	}
	ncm, err := NearestClassMean(x, labels, 2, sp)
	if err != nil {
		t.Fatal(err)
	}
	// The noise column adds variance but not bias to the distances.
	if math.Abs(ncm.Test-bayes) > 0.03 {
		t.Errorf("nearest-mean accuracy %+v, Bayes %v", ncm, bayes)
	}
	if _, _, err := TrainLogistic(x, labels[:5], 2, sp, ClassifierOptions{}); err == nil {
		t.Error("short labels accepted")
	}
}

// assumptionGraph builds a graph that follows the paper's assumptions: m
// labelled centres per class, each the destination of d fresh unlabelled
// leaves whose class and feature follow p; centres have N(0,1) features. It
// returns the graph (leaves Unlabeled) and the aggregation labels (leaves'
// classes).
func assumptionGraph(t *testing.T, p Params, m int, rng *rand.Rand) (*graph.Graph, []int32) {
	t.Helper()
	c, d := p.NumClasses(), p.Degree
	n := c * m * (1 + d)
	x := make([]float32, n)
	labels := make([]int32, n)
	agg := make([]int32, n)
	var src, dst []int32
	var centres []int32
	next := int32(c * m)
	for v := int32(0); v < int32(c*m); v++ {
		i := int(v) % c
		labels[v], agg[v] = int32(i), int32(i)
		x[v] = float32(rng.NormFloat64())
		centres = append(centres, v)
		probs := p.NeighbourProbs(i)
		for range d {
			u := rng.Float64()
			k := 0
			for k < c-1 && u >= probs[k] {
				u -= probs[k]
				k++
			}
			labels[next], agg[next] = graph.Unlabeled, int32(k)
			x[next] = float32(p.Mu[i][k] + p.Sigma[i][k]*rng.NormFloat64())
			src, dst = append(src, next), append(dst, v)
			next++
		}
	}
	rng.Shuffle(len(centres), func(a, b int) { centres[a], centres[b] = centres[b], centres[a] })
	q := len(centres) / 4
	sp := graph.Split{Train: centres[:2*q], Val: centres[2*q : 3*q], Test: centres[3*q:]}
	f, err := graph.NewDenseFeatures(n, 1, x)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.New(graph.Spec{Name: "assumptions", NumNodes: n, Src: src, Dst: dst, Features: f,
		Labels: labels, NumClasses: c, Splits: []graph.Split{sp}})
	if err != nil {
		t.Fatal(err)
	}
	return g, agg
}

func TestDiscriminabilityMatchesTheory(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	// Symmetric with a = 1, b = -1: GCN means are equal for every h (D = S = 0)
	// while the label-wise gap is 2 for k = 0 and 1.
	p, err := Symmetric(2, 10, 0.5, 1, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, agg := assumptionGraph(t, p, 3000, rng)
	rep, err := Discriminability(g, DiscriminabilityOptions{Labels: agg})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ProjectionDim != 1 || rep.LabelWise.Dim != 3 || rep.OracleLabels {
		t.Fatalf("report shape %+v", rep)
	}
	if rep.GCN.Fisher.Mean > 0.01 || rep.GCN.Logistic.Test > 0.56 {
		t.Errorf("GCN should be non-discriminative: fisher %v accuracy %v", rep.GCN.Fisher.Mean, rep.GCN.Logistic.Test)
	}
	if rep.Raw.Logistic.Test > 0.56 {
		t.Errorf("raw centre features are noise, accuracy %v", rep.Raw.Logistic.Test)
	}
	if rep.LabelWise.Logistic.Test < 0.95 || rep.LabelWise.NearestMean.Test < 0.95 {
		t.Errorf("label-wise accuracy %+v / %+v", rep.LabelWise.Logistic, rep.LabelWise.NearestMean)
	}
	// Per-block Fisher ratios against Theorem 2's exact pooled ratios.
	lw, _ := p.LabelWise(0, 1)
	for k := range 2 {
		got, want := rep.LabelWise.Fisher.Blocks[k+1], lw.PerClass[k].Ratio
		if math.Abs(got-want) > 0.1*want {
			t.Errorf("block %d fisher %v, theory %v", k, got, want)
		}
	}

	// A case with a GCN gap: the empirical GCN Fisher ratio matches Theorem 1.
	q := premisesExample(t, 4).WithH(0.8)
	g, agg = assumptionGraph(t, q, 3000, rng)
	rep, err = Discriminability(g, DiscriminabilityOptions{Labels: agg})
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		s, _ := q.GCN(pair[0], pair[1])
		// 10 % plus an absolute 0.01 for the estimator's noise near 0.
		if got := rep.GCN.Fisher.Pair[pair[0]][pair[1]]; math.Abs(got-s.Ratio) > 0.1*s.Ratio+0.01 {
			t.Errorf("pair %v: GCN fisher %v, theory %v", pair, got, s.Ratio)
		}
	}
}

func TestPseudoLabelsAndErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	x, labels, sp := blobs(2000, rng)
	data := make([]float32, len(x.Data))
	for i, v := range x.Data {
		data[i] = float32(v)
	}
	for v, y := range labels {
		data[v*x.Cols] += float32(4*y - 2) // means -3 and +3, noise 1: accuracy Phi(3)
	}
	f, _ := graph.NewDenseFeatures(x.Rows, x.Cols, data)
	g := graph.MustNew(graph.Spec{NumNodes: x.Rows, Features: f, Labels: labels, Splits: []graph.Split{sp}})
	pl, err := PseudoLabels(g, DiscriminabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range sp.Train {
		if pl[v] != labels[v] {
			t.Fatalf("training node %d: pseudo label %d, true %d", v, pl[v], labels[v])
		}
	}
	wrong := 0
	for _, v := range sp.Test {
		if pl[v] != labels[v] {
			wrong++
		}
	}
	if frac := float64(wrong) / float64(len(sp.Test)); frac > 0.01 {
		t.Errorf("pseudo labels wrong on %.3f of test nodes", frac)
	}
	if _, err := Discriminability(g, DiscriminabilityOptions{Split: 3}); err == nil || !strings.Contains(err.Error(), "has 1 splits") {
		t.Errorf("bad split: %v", err)
	}
	bare := graph.MustNew(graph.Spec{NumNodes: 3})
	if _, err := Discriminability(bare, DiscriminabilityOptions{}); err == nil || !strings.Contains(err.Error(), "no features") {
		t.Errorf("no features: %v", err)
	}
}

func TestProjectionPreservesNorms(t *testing.T) {
	// Sparse rows with 3 ones in 2,000 columns have squared norm 3; after the
	// N(0,1/64) projection the squared norm is 3 * chi2_64/64 (mean 3).
	rng := rand.New(rand.NewPCG(19, 20))
	n, cols := 400, 2000
	rowPtr := []int32{0}
	var colIdx []int32
	var vals []float32
	for range n {
		perm := rng.Perm(cols)[:3]
		for _, c := range perm {
			colIdx = append(colIdx, int32(c))
			vals = append(vals, 1)
		}
		rowPtr = append(rowPtr, int32(len(colIdx)))
	}
	f, err := graph.NewSparseFeatures(n, cols, rowPtr, colIdx, vals)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ProjectFeatures(f, 64, 7)
	if err != nil {
		t.Fatal(err)
	}
	var mean float64
	for r := range n {
		var s float64
		for _, v := range x.Row(r) {
			s += v * v
		}
		mean += s / float64(n)
	}
	if x.Cols != 64 || math.Abs(mean-3) > 0.15 {
		t.Errorf("mean squared norm %v, want about 3", mean)
	}
	y, _ := ProjectFeatures(f.ToDense(), 64, 7)
	for i := range x.Data {
		if !near(x.Data[i], y.Data[i], 1e-12) {
			t.Fatal("sparse and dense projections differ")
		}
	}
}
