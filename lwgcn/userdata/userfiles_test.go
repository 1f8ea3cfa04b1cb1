package userdata_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/userdata"
)

// writeFiles writes name -> content into a temp dir and returns the paths.
func writeFiles(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

func TestLoadUserFilesDenseIntegerIDs(t *testing.T) {
	p := writeFiles(t, map[string]string{
		"edges.csv": "# a tiny graph\r\nsource,target\r\n0,1\r\n1,2\r\n\r\n% another comment\r\n2,0\r\n3,3\r\n",
		// Rows out of order, with a header and a byte order mark.
		"features.csv": "\xef\xbb\xbfnode,f0,f1,f2\n2,0.5,0,-1\n0,1,2,3\n3,0,0,0\n1,1e-2,4,5\n",
		"labels.csv":   "node,label\n0,spam\n1,ham\n3, spam \n",
		"splits.csv":   "node,split0,split1\n0,train,test\n1,val,train\n2,-,none\n3,test,val\n",
	})
	ug, err := userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Features: p["features.csv"],
		Labels: p["labels.csv"], Splits: p["splits.csv"], UserOptions: userdata.UserOptions{Name: "tiny"}})
	if err != nil {
		t.Fatal(err)
	}
	g := ug.Graph
	if g.Name() != "tiny" || g.NumNodes() != 4 || !ug.IntegerIDs || ug.FeatureFormat != "dense" {
		t.Fatalf("graph %v, integer ids %v, format %q", g, ug.IntegerIDs, ug.FeatureFormat)
	}
	if !reflect.DeepEqual(g.Src(), []int32{0, 1, 2, 3}) || !reflect.DeepEqual(g.Dst(), []int32{1, 2, 0, 3}) {
		t.Errorf("edges %v -> %v", g.Src(), g.Dst())
	}
	want := [][]float32{{1, 2, 3}, {0.01, 4, 5}, {0.5, 0, -1}, {0, 0, 0}}
	f := g.Features()
	if f.NumRows() != 4 || f.NumCols() != 3 || f.IsSparse() {
		t.Fatalf("features %v", f)
	}
	for v, row := range want {
		if got := f.DenseRow(v); !reflect.DeepEqual(got, row) {
			t.Errorf("features row %d = %v, want %v", v, got, row)
		}
	}
	// Names sorted: ham = 0, spam = 1; node 2 has no label.
	if !reflect.DeepEqual(ug.ClassNames, []string{"ham", "spam"}) ||
		!reflect.DeepEqual(g.Labels(), []int32{1, 0, graph.Unlabeled, 1}) || g.NumClasses() != 2 {
		t.Errorf("classes %v labels %v (C = %d)", ug.ClassNames, g.Labels(), g.NumClasses())
	}
	wantSplits := []graph.Split{
		{Train: []int32{0}, Val: []int32{1}, Test: []int32{3}},
		{Train: []int32{1}, Val: []int32{3}, Test: []int32{0}},
	}
	if !reflect.DeepEqual(g.Splits(), wantSplits) {
		t.Errorf("splits %+v, want %+v", g.Splits(), wantSplits)
	}
	notes := strings.Join(ug.Notes, "\n")
	for _, w := range []string{`edges.csv: data starts at line 3 (line 2 "source,target" is a header: every field is a usual column name)`,
		`features.csv: data starts at line 2 (line 1 "node,f0,f1,f2" is a header`,
		"dense rows of 3 values", "2 named classes", "splits.csv: 2 split(s)"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
}

func TestReadUserGraphNamedSparse(t *testing.T) {
	in := userdata.UserInputs{
		// Whitespace-separated, no header; ids are names.
		Features: &userdata.NamedReader{Name: "x.txt", R: strings.NewReader("carol 1:1 3:2.5\nalice\nbob 0:-1\t\n")},
		Labels:   &userdata.NamedReader{Name: "y.tsv", R: strings.NewReader("alice\t2\nbob\t0\ncarol\t-1\n")},
		Edges:    &userdata.NamedReader{Name: "e.txt", R: strings.NewReader("alice   bob\nbob carol\n\"carol\" alice\n")},
	}
	ug, err := userdata.ReadUserGraph(in, userdata.UserOptions{Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	g := ug.Graph
	if ug.IntegerIDs || ug.FeatureFormat != "sparse" || !reflect.DeepEqual(ug.NodeIDs, []string{"carol", "alice", "bob"}) {
		t.Fatalf("integer ids %v, format %q, ids %v", ug.IntegerIDs, ug.FeatureFormat, ug.NodeIDs)
	}
	f := g.Features()
	if !f.IsSparse() || f.NumCols() != 4 || f.NNZ() != 3 || f.At(0, 1) != 1 || f.At(0, 3) != 2.5 || f.At(2, 0) != -1 || f.At(1, 0) != 0 {
		t.Errorf("features %v", f.ToDense())
	}
	if !reflect.DeepEqual(g.Labels(), []int32{graph.Unlabeled, 2, 0}) || g.NumClasses() != 3 {
		t.Errorf("labels %v, C = %d", g.Labels(), g.NumClasses())
	}
	// Triangle alice-bob-carol, made undirected: 6 directed edges.
	if g.NumEdges() != 6 || !g.IsSymmetric() {
		t.Errorf("%d edges, symmetric %v", g.NumEdges(), g.IsSymmetric())
	}
}

func TestReadUserGraphIdentityFeaturesAndOptions(t *testing.T) {
	// No features: identity. Quoted labels with commas.
	in := userdata.UserInputs{
		Edges:  &userdata.NamedReader{Name: "e", R: strings.NewReader("0 2\n")},
		Labels: &userdata.NamedReader{Name: "l", R: strings.NewReader("0,\"New York, NY\"\n2,\"Paris \"\"FR\"\"\"\n")},
	}
	ug, err := userdata.ReadUserGraph(in, userdata.UserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := ug.Graph.Features()
	if ug.FeatureFormat != "identity" || ug.Graph.NumNodes() != 3 || f.NumCols() != 3 || f.At(1, 1) != 1 || f.At(1, 0) != 0 {
		t.Errorf("format %q, %d nodes, features %v", ug.FeatureFormat, ug.Graph.NumNodes(), f.ToDense())
	}
	if !reflect.DeepEqual(ug.ClassNames, []string{"New York, NY", `Paris "FR"`}) {
		t.Errorf("class names %q", ug.ClassNames)
	}
	// 1-based sparse indices and a fixed width; a header forced off.
	in = userdata.UserInputs{
		Edges:    &userdata.NamedReader{Name: "e", R: strings.NewReader("0,1\n")},
		Features: &userdata.NamedReader{Name: "f", R: strings.NewReader("0 1:3\n1 2:4\n")},
	}
	ug, err = userdata.ReadUserGraph(in, userdata.UserOptions{SparseIndexBase: 1, NumFeatures: 5, Header: userdata.HeaderAbsent})
	if err != nil {
		t.Fatal(err)
	}
	if f := ug.Graph.Features(); f.NumCols() != 5 || f.At(0, 0) != 3 || f.At(1, 1) != 4 {
		t.Errorf("1-based features %v", f.ToDense())
	}
	// Nodes named like column names are data when the next line looks the same.
	in = userdata.UserInputs{Edges: &userdata.NamedReader{Name: "e", R: strings.NewReader("x1,x2\nx2,x3\n")}}
	if ug, err = userdata.ReadUserGraph(in, userdata.UserOptions{}); err != nil || ug.Graph.NumEdges() != 2 {
		t.Errorf("x1,x2 / x2,x3: err %v, graph %v", err, ug)
	}
}

func TestReadUserGraphErrors(t *testing.T) {
	const edges = "source,target\n0,1\n1,2\n"
	const feats = "node,a,b\n0,1,2\n1,3,4\n2,5,6\n"
	cases := []struct {
		name                         string
		edges, feats, labels, splits string
		ids                          userdata.IDMode
		want                         string
	}{
		{"edge weights", "0,1\n1,2,0.5\n", feats, "", "", 0, "edges.csv:2: 3 fields, want 2 (source, target); edge weights"},
		{"bad value", edges, "node,a,b\n0,1,2\n1,abc,4\n2,5,6\n", "", "", 0, `features.csv:3: feature 1: "abc" is not a number`},
		{"non-finite", edges, "0,1,2\n1,NaN,4\n2,5,6\n", "", "", 0, `features.csv:2: feature 1: "NaN" is not a finite float32`},
		{"dense width", edges, "node,a,b\n0,1,2\n1,3\n2,5,6\n", "", "", 0, "features.csv:3: 1 feature values, want 2 (as on line 2)"},
		{"dense empty row", edges, "0\n1,3,4\n2,5,6\n", "", "", 0, `features.csv:1: node "0" has no feature values`},
		{"duplicate row", edges, "node,a,b\n0,1,2\n1,3,4\n1,5,6\n", "", "", 0, "features.csv:4: node 1 has a second feature row (first on line 3)"},
		{"missing row", "0,1\n1,7\n", feats, "", "", 0, "edges.csv:2: node 7 has no row in"},
		{"1-based ids", edges, "node,a,b\n1,1,2\n2,3,4\n3,5,6\n", "", "", 0, "features.csv:4: node id 3 outside 0..2"},
		{"named unknown", "a,b\nb,zed\n", "a,1\nb,2\n", "", "", 0, `edges.csv:2: node "zed" has no row in`},
		{"forced integer", "a,b\n", "", "", "", userdata.IDsInteger, `edges.csv:1: node id "a" is not a non-negative integer`},
		{"sparse pair", edges, "0 1:1\n1 2\n2 0:1\n", "", "", 0, `features.csv:2: "2" is not an index:value pair`},
		{"sparse repeat", edges, "0 1:1 1:2\n1\n2\n", "", "", 0, "features.csv:1: feature index 1 appears twice"},
		{"sparse index", edges, "0 -1:1\n1\n2\n", "", "", 0, `features.csv:1: feature index "-1" is not an integer >= 0`},
		{"label fields", edges, feats, "node,label\n0\n", "", 0, "labels.csv:2: 1 fields, want 2 (node, label)"},
		{"duplicate label", edges, feats, "0,a\n1,b\n0,b\n", "", 0, `labels.csv:3: node "0" has a second label (first on line 1)`},
		{"quote", edges, feats, "0,\"open\n", "", 0, "labels.csv:1: unterminated quoted field"},
		{"after quote", edges, feats, "0,\"a\"b\n", "", 0, `labels.csv:1: text after a closing quote: "b"`},
		{"split code", edges, feats, "0,0\n1,1\n2,1\n", "node,s\n0,trian\n", 0, `splits.csv:2: split 1: "trian" is not train, val, test or none`},
		{"split width", edges, feats, "0,0\n1,1\n2,1\n", "0,train,test\n1,val\n", 0, "splits.csv:2: 1 split columns, want 2 (as on line 1)"},
		{"split unlabeled", edges, feats, "0,0\n1,1\n", "0,train\n2,test\n", 0, `splits.csv:2: split 1 uses node "2", which has no label`},
		{"split no train", edges, feats, "0,0\n1,1\n", "0,val\n1,test\n", 0, "splits.csv: split 1 has no training node"},
		{"empty features", edges, "# nothing\n", "", "", 0, "features.csv: no feature rows"},
		{"empty labels", edges, feats, "node,label\n", "", 0, "labels.csv: no label rows"},
		{"no nodes", "# empty\n", "", "", "", 0, "edges.csv: no nodes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"edges.csv": c.edges}
			for name, s := range map[string]string{"features.csv": c.feats, "labels.csv": c.labels, "splits.csv": c.splits} {
				if s != "" {
					files[name] = s
				}
			}
			p := writeFiles(t, files)
			_, err := userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Features: p["features.csv"],
				Labels: p["labels.csv"], Splits: p["splits.csv"], UserOptions: userdata.UserOptions{IDs: c.ids}})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, c.want)
			}
			// Messages name the file by its path.
			if strings.Contains(c.want, ".csv") && !strings.Contains(err.Error(), filepath.Dir(p["edges.csv"])) {
				t.Errorf("error %q does not give the file's path", err)
			}
		})
	}
	if _, err := userdata.LoadUserFiles(userdata.UserFiles{Edges: "/nonexistent/e.csv"}); err == nil ||
		!strings.Contains(err.Error(), "/nonexistent/e.csv") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := userdata.LoadUserFiles(userdata.UserFiles{}); err == nil || !strings.Contains(err.Error(), "no edges file") {
		t.Errorf("no edges: %v", err)
	}
}

func TestWriteUserFilesRoundTrip(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		x, err := graph.NewDenseFeatures(4, 3, []float32{1, 0, 0.25, 0, 0, 0, -3, 1e-7, 2, 0, 5, 0})
		if err != nil {
			t.Fatal(err)
		}
		if sparse {
			x = x.ToSparse()
		}
		g := graph.MustNew(graph.Spec{Name: "rt", NumNodes: 4, Src: []int32{0, 1, 3, 3}, Dst: []int32{1, 0, 2, 3},
			Features: x, Labels: []int32{0, 2, graph.Unlabeled, 1},
			Splits: []graph.Split{{Train: []int32{0}, Val: []int32{1}, Test: []int32{3}}, {Train: []int32{1, 3}, Test: []int32{0}}}})
		uf, err := userdata.WriteUserFiles(t.TempDir(), g)
		if err != nil {
			t.Fatal(err)
		}
		// Read back with header detection, as a user would.
		uf.Header = userdata.HeaderAuto
		ug, err := userdata.LoadUserFiles(uf)
		if err != nil {
			t.Fatal(err)
		}
		h := ug.Graph
		if h.Name() != "rt" || !reflect.DeepEqual(h.Src(), g.Src()) || !reflect.DeepEqual(h.Dst(), g.Dst()) ||
			!reflect.DeepEqual(h.Labels(), g.Labels()) || !reflect.DeepEqual(h.Splits(), g.Splits()) ||
			h.Features().IsSparse() != sparse || !h.Features().ToDense().Equal(x.ToDense()) {
			t.Errorf("sparse=%v: round trip differs:\n%v\n%v\nfeatures %v", sparse, g, h, h.Features().ToDense())
		}
	}
}
