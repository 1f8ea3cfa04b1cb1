package datasets_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
)

func TestPlanetoidWithGeomGCNSplits(t *testing.T) {
	srv := serveDir(t, sharedDir(t))
	g, err := datasets.Load(context.Background(), "cora", datasets.WithMirror(srv.URL), datasets.WithCacheDir(t.TempDir()),
		datasets.WithGeomGCNSplits(), datasets.Silent())
	if err != nil {
		t.Fatal(err)
	}
	// Sizes from numpy: mask sums of cora_split_0.6_0.2_0.npz.
	if len(g.Splits()) != 10 || g.Splits()[0].String() != "1192/796/497" || g.NumEdges() != 10556 {
		t.Errorf("%v, split 0 %v", g, g.Splits()[0])
	}
}

// TestChameleonPureGeomGCNRoute writes chameleon's features in Geom-GCN's
// text format (from the npz, which has the same node order) into a mirror and
// loads it through WithGeomGCNFeatures with its sum: the result must equal
// the default route's, and the unpinned feature file's sum is recorded.
func TestChameleonPureGeomGCNRoute(t *testing.T) {
	shared := sharedDir(t)
	h, err := datasets.LoadHeterophilousNPZ("chameleon", filepath.Join(shared, "heterophilous-graphs/data/chameleon.npz"), 5)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("node_id\tfeature\tlabel\n")
	f := h.Features()
	for v := 0; v < h.NumNodes(); v++ {
		row := f.DenseRow(v)
		cells := make([]string, len(row))
		for i, x := range row {
			cells[i] = strconv.FormatFloat(float64(x), 'g', -1, 32)
		}
		fmt.Fprintf(&b, "%d\t%s\t%d\n", v, strings.Join(cells, ","), h.Labels()[v])
	}
	files := []string{"geom-gcn/new_data/chameleon/out1_graph_edges.txt"}
	for i := 0; i < 10; i++ {
		files = append(files, "geom-gcn/splits/chameleon_split_0.6_0.2_"+strconv.Itoa(i)+".npz")
	}
	mirror := copyFiles(t, shared, append(files, "heterophilous-graphs/data/chameleon.npz")...)
	writeFile(t, filepath.Join(mirror, "geom-gcn/new_data/chameleon/out1_node_feature_label.txt"), b.Bytes())
	var log bytes.Buffer
	cache := t.TempDir()
	// The feature file is unpinned: from a mirror, only with its sum.
	pure, err := datasets.Load(context.Background(), "chameleon", datasets.WithMirror(mirror), datasets.WithCacheDir(cache),
		datasets.WithGeomGCNFeatures(), datasets.WithProgress(nil), datasets.WithLog(&log),
		datasets.WithSHA256("geom-gcn/new_data/chameleon/out1_node_feature_label.txt", sha256Hex(b.Bytes())))
	if err != nil {
		t.Fatal(err)
	}
	def, err := datasets.Load(context.Background(), "chameleon", datasets.WithMirror(mirror), datasets.WithCacheDir(cache),
		datasets.Silent())
	if err != nil {
		t.Fatal(err)
	}
	if !pure.Features().Equal(def.Features()) || !slices.Equal(pure.Labels(), def.Labels()) ||
		!slices.Equal(pure.Src(), def.Src()) || pure.NumEdges() != 36101 || len(pure.Splits()) != 10 {
		t.Errorf("pure route %v differs from default %v", pure, def)
	}
	if !strings.Contains(log.String(), "out1_node_feature_label.txt has no pinned checksum") ||
		!strings.Contains(log.String(), "the sum passed with WithSHA256") {
		t.Errorf("no trust-on-first-use notice: %q", log.String())
	}
	if !exists(filepath.Join(cache, "geom-gcn/new_data/chameleon/out1_node_feature_label.txt.sha256")) {
		t.Error("no sidecar")
	}
}

func ExampleEvenQuantileLabels() {
	years := []float64{2005, 2007, 2007, 2008, 2010, 2010, 2010, 2012, 2013, 2015, 2019}
	labels, bounds := datasets.EvenQuantileLabels(years, 5)
	fmt.Println(labels)
	fmt.Println(bounds)
	// Output:
	// [0 1 1 1 3 3 3 3 4 4 4]
	// [2007 2010 2010 2013]
}
