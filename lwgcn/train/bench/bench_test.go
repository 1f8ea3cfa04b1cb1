package bench

import (
	"os"
	"testing"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/backend"
)

func TestRandomGraphSizes(t *testing.T) {
	g, err := RandomGraph(Texas, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 183 || g.NumEdges() != 325 || g.Features().NumCols() != 1703 ||
		g.Features().NNZ() != 183*19 || len(g.Splits()) != 1 {
		t.Fatalf("texas-size graph: %v, nnz %d", g, g.Features().NNZ())
	}
}

// TestSuiteSmoke runs the Texas cases briefly (BENCH=filter runs others).
func TestSuiteSmoke(t *testing.T) {
	filter := os.Getenv("BENCH")
	minTime := 10 * time.Millisecond
	if filter == "" {
		filter = "/texas/"
	} else {
		minTime = time.Second
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(b, info, Suite(), Options{Filter: filter, MinTime: minTime, Log: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) == 0 {
		t.Fatal("no cases ran")
	}
	for _, c := range rep.Cases {
		if c.Error != "" {
			t.Errorf("%s/%s: %s", c.Name, c.Graph, c.Error)
		} else if c.MsEpoch <= 0 || c.Epochs <= 0 {
			t.Errorf("%s/%s: %v ms over %d epochs", c.Name, c.Graph, c.MsEpoch, c.Epochs)
		}
	}
}
