package userdata_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/limits"
	"github.com/lwgcn/toolkit/lwgcn/userdata"
)

func TestHostileUserFiles(t *testing.T) {
	t.Setenv(limits.EnvMaxMemory, "1GiB")
	var feats, edges, labels strings.Builder
	for i := range 30 {
		fmt.Fprintf(&edges, "%d,%d\n", i, (i+1)%30)
		fmt.Fprintf(&labels, "%d,%d\n", i, i%3)
		col := 6
		if i == 7 {
			col = 1999999999 // one typo in a 30-line file
		}
		fmt.Fprintf(&feats, "%d %d:1 %d:1\n", i, i%5, col)
	}
	p := writeFiles(t, map[string]string{"features.csv": feats.String(), "edges.csv": edges.String(),
		"labels.csv": labels.String(), "far.csv": "0,1\n1,2\n0,49999999\n"})
	_, err := userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Features: p["features.csv"], Labels: p["labels.csv"]})
	dstest.TooLarge(t, "sparse feature index 1999999999", err, p["features.csv"]+":8", "feature index 1999999999")
	_, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["far.csv"]})
	dstest.TooLarge(t, "edge 0,49999999", err, p["far.csv"]+":3", "node id 49999999")
	// NumFeatures asks for the width itself.
	_, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Features: p["features.csv"],
		UserOptions: userdata.UserOptions{NumFeatures: 2_000_000_000}})
	dstest.TooLarge(t, "NumFeatures 2e9", err, "NumFeatures 2000000000")
}

// southernWomen writes a Davis-like bipartite graph with named nodes: 18
// women and 14 events, 89 attendances, and quoted headers naming the
// columns with words the loader does not know as column names.
func southernWomen() (edges, labels string, pairs int) {
	var e, l strings.Builder
	e.WriteString("\"woman\",\"event\"\n")
	l.WriteString("\"name\",\"group\"\n")
	for w := 1; w <= 18; w++ {
		fmt.Fprintf(&l, "\"W%d\",\"woman\"\n", w)
	}
	for ev := 1; ev <= 14; ev++ {
		fmt.Fprintf(&l, "\"E%d\",\"event\"\n", ev)
	}
	for w := 1; w <= 18; w++ {
		for ev := 1; ev <= 14 && pairs < 89; ev++ {
			if (w*7+ev*3)%5 < 2 || ev == (w%14)+1 {
				fmt.Fprintf(&e, "\"W%d\",\"E%d\"\n", w, ev)
				pairs++
			}
		}
	}
	return e.String(), l.String(), pairs
}

// Users' CSV files (10): a header of names is not read as an edge or a
// label; where data starts is said with the reason; duplicate edges and
// ids unlike the others are reported.
func TestHostileUserCSV(t *testing.T) {
	edges, labels, pairs := southernWomen()
	p := writeFiles(t, map[string]string{"edges.csv": edges, "labels.csv": labels,
		"dup.csv": "0,1\n1,2\n2,0\n1,2\n0,1\n", "typo.csv": "0,1\n1,2\n2,3\n3,4\n4,5\n5,6\n6,7\n7,8\n8,9\n9,1O\n",
		"pendant.csv": "100,101\n0,1\n1,2\n2,0\n"})
	ug, err := userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Labels: p["labels.csv"],
		UserOptions: userdata.UserOptions{Undirected: true}})
	if err != nil {
		t.Fatal(err)
	}
	g := ug.Graph
	notes := strings.Join(ug.Notes, "\n")
	if g.NumNodes() != 32 || g.NumEdges() != 2*pairs || g.NumClasses() != 2 {
		t.Errorf("southern women: %v, want 32 nodes, %d edges, 2 classes; notes:\n%s", g, 2*pairs, notes)
	}
	for _, w := range []string{p["edges.csv"] + ": data starts at line 2 (line 1", "appear on no other line",
		p["labels.csv"] + ": data starts at line 2 (line 1"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	ug, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["dup.csv"]})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(ug.Notes, "\n"); ug.Graph.NumEdges() != 5 ||
		!strings.Contains(notes, p["dup.csv"]+": 2 duplicate edges (line 4 repeats line 2; line 5 repeats line 1)") {
		t.Errorf("duplicates: %v; notes:\n%s", ug.Graph, notes)
	}
	ug, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["typo.csv"]})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(ug.Notes, "\n"); !strings.Contains(notes, p["typo.csv"]+`:10: node id "1O" is not an integer`) {
		t.Errorf("an id unlike the others is not reported; notes:\n%s", notes)
	}
	ug, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["pendant.csv"]})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(ug.Notes, "\n"); ug.Graph.NumEdges() != 4 || !strings.Contains(notes, p["pendant.csv"]+":1: nodes 100 and 101 appear only on this first line") {
		t.Errorf("a first line whose nodes appear nowhere else (kept as data): %v; notes:\n%s", ug.Graph, notes)
	}
}
