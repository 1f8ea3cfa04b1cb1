package userdata_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/userdata"
)

// A huge integer label makes one class, not two billion (the loader used to
// allocate by the largest label and die out of memory); ClassNames maps the
// class numbers back to the labels of the file.
func TestUserLabelsNumberedByDistinctValues(t *testing.T) {
	p := writeFiles(t, map[string]string{
		"edges.csv":  "0,1\n1,2\n2,3\n3,0\n",
		"labels.csv": "0,2000000000\n1,7\n2,-1\n3,07\n",
	})
	ug, err := userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Labels: p["labels.csv"]})
	if err != nil {
		t.Fatal(err)
	}
	g := ug.Graph
	if g.NumClasses() != 2 || !reflect.DeepEqual(ug.ClassNames, []string{"7", "2000000000"}) ||
		!reflect.DeepEqual(g.Labels(), []int32{1, 0, graph.Unlabeled, 0}) {
		t.Fatalf("C = %d, class names %v, labels %v", g.NumClasses(), ug.ClassNames, g.Labels())
	}
	if notes := strings.Join(ug.Notes, "\n"); !strings.Contains(notes, "labels.csv: 2 distinct integer labels, not 0..1: "+
		"class c is the c-th smallest (ClassNames maps back: 7, 2000000000)") {
		t.Errorf("notes:\n%s", notes)
	}

	// Dense integer labels keep their numbers, an unused one (1 of 0..3) too.
	p = writeFiles(t, map[string]string{"edges.csv": "0,1\n1,2\n", "labels.csv": "0,2\n1,0\n2,3\n"})
	ug, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Labels: p["labels.csv"]})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ug.Graph.Labels(), []int32{2, 0, 3}) || !reflect.DeepEqual(ug.ClassNames, []string{"0", "1", "2", "3"}) {
		t.Errorf("labels %v, class names %v", ug.Graph.Labels(), ug.ClassNames)
	}
	// 0, 1 and 100000000: sparse, so three classes (not 10^8 + 1).
	p = writeFiles(t, map[string]string{"edges.csv": "0,1\n1,2\n", "labels.csv": "0,100000000\n1,0\n2,1\n"})
	ug, err = userdata.LoadUserFiles(userdata.UserFiles{Edges: p["edges.csv"], Labels: p["labels.csv"]})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ug.Graph.Labels(), []int32{2, 0, 1}) || ug.Graph.NumClasses() != 3 {
		t.Errorf("labels %v, C = %d", ug.Graph.Labels(), ug.Graph.NumClasses())
	}
}
