package synth_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
	"github.com/lwgcn/toolkit/lwgcn/synth"
)

// A 100-node path with alternating classes has 99 heterophilic and no
// homophilic edges. Asking for h = 0.3 and d = 4 needs m = 4*100/2 = 200
// undirected edges, 60 homophilic (all added: the base has none) and 140
// heterophilic (99 from the base, 41 added).
func ExampleResampleHomophily() {
	n := 100
	labels := make([]int32, n)
	var src, dst []int32
	for v := range n {
		labels[v] = int32(v % 2)
		if v > 0 {
			src, dst = append(src, int32(v-1)), append(dst, int32(v))
		}
	}
	base := graph.MustNew(graph.Spec{Name: "path", NumNodes: n, Src: src, Dst: dst, Labels: labels})
	g, r, err := synth.ResampleHomophily(base, 0.3, 4, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	h, _ := homophily.EdgeHomophily(g)
	fmt.Printf("%s: %d directed edges, h=%.2f, d=%.1f, added %d homophilic and %d heterophilic\n",
		g.Name(), g.NumEdges(), h, g.AverageDegree(), r.HomophilicAdded, r.HeterophilicAdded)
	// Output: path-h0.30-d4: 400 directed edges, h=0.30, d=4.0, added 60 homophilic and 41 heterophilic
}
