package datasets_test

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
)

// FuzzGeomGCNText feeds arbitrary features/edges text to the Geom-GCN
// parsers; they must return a graph-consistent result or an error, never panic.
func FuzzGeomGCNText(f *testing.F) {
	f.Add(texasLike, "node_id\tnode_id\n0\t1\n2\t2\n")
	f.Add("node_id\tfeature\tlabel\r\n0\t0.5,1e-3,-2\t0\r\n", "h\n0\t0")
	f.Add("h\n3\t1\t1\n", "h\n\n")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, feats, edges string) {
		x, labels, err := datasets.ReadGeomGCNFeatures(strings.NewReader(feats), "f.txt", 0)
		if err != nil {
			return
		}
		if x.NumRows() != len(labels) {
			t.Fatalf("%d feature rows, %d labels", x.NumRows(), len(labels))
		}
		src, dst, err := datasets.ReadGeomGCNEdges(strings.NewReader(edges), "e.txt", len(labels))
		if err != nil {
			return
		}
		for e := range src {
			if int(src[e]) >= len(labels) || int(dst[e]) >= len(labels) {
				t.Fatalf("edge %d->%d outside %d nodes", src[e], dst[e], len(labels))
			}
		}
	})
}
