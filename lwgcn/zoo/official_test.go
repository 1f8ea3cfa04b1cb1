package zoo

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// renamed is ringChords16Graph under a dataset's name, so that
// datasets.Standard and the entries' defaults treat it as that dataset.
func renamed(t *testing.T, name string) *graph.Graph {
	return ringChords16Graph(t).WithName(name)
}

// TestRawFeaturesForOfficialLoaders: on a Planetoid graph (row-normalised by
// the standard preprocessing), SuperGAT, LINKX and ASGC train on the binary
// features their official loaders read, the others on normalised rows; on a
// graph the standard preprocessing leaves alone, every entry's features are
// the loaded ones or its own normalisation of them.
func TestRawFeaturesForOfficialLoaders(t *testing.T) {
	loaded := renamed(t, "cora")
	std := datasets.Standard(loaded)
	if std.Features().Equal(loaded.Features()) {
		t.Fatal("the standard preprocessing did not normalise the test graph's features")
	}
	raw := map[string]bool{"supergat": true, "linkx": true, "asgc": true}
	for _, name := range Names() {
		e, _ := Lookup(name)
		got := e.Prepare(std, e.Defaults("cora")).Features()
		if got.Equal(loaded.Features()) != raw[name] {
			t.Errorf("%s on cora: features equal the loaded binary ones: %v, want %v", name, !raw[name], raw[name])
		}
		if !raw[name] {
			for i, s := range got.RowSums() {
				if math.Abs(s-1) > 1e-5 {
					t.Errorf("%s on cora: row %d of the features sums to %v, want 1", name, i, s)
					break
				}
			}
		}
	}
	// Texas is not normalised by the standard preprocessing: the raw key is a no-op.
	tex := renamed(t, "texas")
	for _, name := range []string{"supergat", "linkx", "asgc"} {
		e, _ := Lookup(name)
		if got := e.Prepare(datasets.Standard(tex), e.Defaults("texas")).Features(); !got.Equal(tex.Features()) {
			t.Errorf("%s on texas: features changed", name)
		}
		// ... and absent, so that the runs recorded before it keep their keys.
		if _, ok := e.Defaults("texas").Extra[RawFeaturesKey]; ok {
			t.Errorf("%s on texas: the raw-features key is set", name)
		}
	}
}

// TestOfficialSelections: each baseline's reported epoch and stopping rule
// are its official code's (see each entry's defaults).
func TestOfficialSelections(t *testing.T) {
	loss, acc := train.ByValLoss, train.ByValAcc
	cases := []struct {
		name, dataset string
		want          train.Selection
	}{
		{"gcnii", "cora", train.Selection{By: loss, Patience: 100}},
		{"gcnii", "texas", train.Selection{By: loss, Patience: 100}},
		{"gcnii", "squirrel", train.Selection{By: loss, Patience: 100}},
		{"fagcn", "citeseer", train.Selection{By: loss, Patience: 200, PatienceOnBoth: true}},
		{"fagcn", "pubmed", train.Selection{By: loss, Patience: 200, PatienceOnBoth: true}},
		{"fagcn", "chameleon", train.Selection{By: acc}},
		{"supergat", "cora", train.Selection{By: acc, LaterOnTies: true}},
		{"supergat", "texas", train.Selection{By: acc, LaterOnTies: true}},
		{"linkx", "cora", train.Selection{}},
		{"gcn", "cora", train.Selection{}},
	}
	for _, c := range cases {
		e, _ := Lookup(c.name)
		if got := e.Defaults(c.dataset).Selection(); got != c.want {
			t.Errorf("%s on %s: selection %+v, want %+v", c.name, c.dataset, got, c.want)
		}
	}
	e, _ := Lookup("gcnii")
	if h := e.Defaults("texas"); h.Epochs != 1500 || h.Alpha != 0.5 || h.Get(GCNIIDirectedKey, 0) != 1 {
		t.Errorf("gcnii on texas: %+v, want full-supervised.py's 1500 epochs, alpha 0.5, directed adjacency", h)
	}
	if h := e.Defaults("chameleon"); h.Alpha != 0.2 || h.Get(GCNIIRowNormalizeKey, 0) != 1 {
		t.Errorf("gcnii on chameleon: %+v, want full.sh's alpha 0.2 and row-normalised features", h)
	}
	if h := e.Defaults("cora"); h.Alpha != 0.1 || h.Get(GCNIIDirectedKey, 0) != 0 || h.Get("wd_dense", 0) != 5e-4 {
		t.Errorf("gcnii on cora: %+v, want semi.sh's alpha 0.1, symmetric graph, two weight decays", h)
	}
	f, _ := Lookup("fagcn")
	if h := f.Defaults("cora"); h.Hidden != 16 || h.Layers != 4 || h.Dropout != 0.6 || h.WeightDecay != 1e-3 || h.Alpha != 0.3 {
		t.Errorf("fagcn on cora: %+v, want the semi-supervised settings", h)
	}
}

// TestGCNIIDirectedAdjacency: GCNII's full-supervised graph aggregates each
// node's out-neighbours with D^-1/2 (A + I) D^-1/2, D the row sums of A + I
// (process.full_load_data, utils.sys_normalized_adjacency), duplicate rows
// merged; its features are row-normalised. Checked entry by entry against
// the matrix built from the edge list by hand.
func TestGCNIIDirectedAdjacency(t *testing.T) {
	// 0->1, 0->2, 0->2 (duplicate), 2->3, 3->0: node 0 has out-degree 2.
	x, _ := graph.NewDenseFeatures(4, 2, []float32{1, 1, 2, 0, 0, 4, 3, 1})
	g := graph.MustNew(graph.Spec{Name: "texas", NumNodes: 4, Src: []int32{0, 0, 0, 2, 3}, Dst: []int32{1, 2, 2, 3, 0},
		Features: x, Labels: []int32{0, 1, 0, 1}})
	e, _ := Lookup("gcnii")
	pg := e.Prepare(g, e.Defaults("texas"))
	m, err := nn.GCNNormalized(pg.NumNodes(), pg.Src(), pg.Dst())
	if err != nil {
		t.Fatal(err)
	}
	got := m.Dense()
	a := [4][4]float64{}
	for _, ed := range [][2]int{{0, 1}, {0, 2}, {2, 3}, {3, 0}} {
		a[ed[0]][ed[1]] = 1
	}
	var d [4]float64
	for i := range 4 {
		a[i][i]++
		for j := range 4 {
			d[i] += a[i][j]
		}
	}
	for i := range 4 {
		for j := range 4 {
			want := a[i][j] / math.Sqrt(d[i]*d[j])
			if math.Abs(got[i*4+j]-want) > 1e-6 {
				t.Fatalf("adjacency[%d][%d] = %v, want %v (row i aggregates i's out-neighbours)", i, j, got[i*4+j], want)
			}
		}
	}
	for i, s := range pg.Features().RowSums() {
		if math.Abs(s-1) > 1e-6 {
			t.Errorf("feature row %d sums to %v, want 1", i, s)
		}
	}
	// The semi-supervised pipeline (Cora) keeps the symmetric graph.
	if pc := e.Prepare(g.WithName("cora"), e.Defaults("cora")); !pc.IsSymmetric() {
		t.Error("gcnii on cora: graph not symmetric")
	}
}

// TestNewTrainerStopsAtPatience: an entry's patience reaches the trainer (a
// GCNII that overfits the tiny graph stops before its 1500 epochs), and the
// reported epoch has the run's lowest validation loss.
func TestNewTrainerStopsAtPatience(t *testing.T) {
	e, _ := Lookup("gcnii")
	h := e.Defaults("cornell")
	h.Layers = 2
	_, rr := trainOnRingChords16(t, "gcnii", h)
	if rr.Epochs >= h.Epochs || rr.Epochs != rr.BestEpoch+GCNIIPatience {
		t.Fatalf("ran %d of %d epochs, best %d: want a stop %d epochs after the best", rr.Epochs, h.Epochs, rr.BestEpoch,
			GCNIIPatience)
	}
	minLoss := slices.MinFunc(rr.History, func(a, b train.EpochStats) int {
		return int(math.Copysign(1, a.ValLoss-b.ValLoss))
	}).ValLoss
	if rr.ValLoss != minLoss {
		t.Fatalf("reported validation loss %v, lowest %v", rr.ValLoss, minLoss)
	}
	b, info, _ := backend.Shared()
	h.Extra[PatienceKey] = 2.5
	if _, err := NewTrainer(b, info, ringChords16Graph(t), "gcnii", h, nil); err == nil ||
		!strings.Contains(err.Error(), `extra "patience" must be a whole number`) {
		t.Fatalf("patience 2.5: error %v", err)
	}
}
