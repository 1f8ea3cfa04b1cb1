package train_test

import (
	"context"
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// ring30 is a ring of 30 nodes in 3 classes whose first feature says the
// class on every other node, with one split of 12 training, 9
// validation and 9 test nodes.
func ring30() *graph.Graph {
	const n = 30
	x := make([]float32, n*4)
	labels := make([]int32, n)
	var src, dst []int32
	for v := range n {
		labels[v] = int32(v % 3)
		if v%2 == 0 {
			x[v*4+v%3] = 1
		}
		x[v*4+3] = float32(v%5) / 5
		src, dst = append(src, int32(v), int32((v+1)%n)), append(dst, int32((v+1)%n), int32(v))
	}
	feats, _ := graph.NewDenseFeatures(n, 4, x)
	var split graph.Split
	for v := range int32(n) {
		switch {
		case v < 12:
			split.Train = append(split.Train, v)
		case v < 21:
			split.Val = append(split.Val, v)
		default:
			split.Test = append(split.Test, v)
		}
	}
	return graph.MustNew(graph.Spec{Name: "ring30", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels,
		NumClasses: 3, Splits: []graph.Split{split}})
}

// Training an MLP full-batch with the protocol's selection (the epoch of best
// validation accuracy), one run at a time and then two runs (seeds) in one
// computation: each run of the batch reports what it reports alone.
func Example() {
	b, info, err := backend.Shared()
	if err != nil {
		panic(err)
	}
	g := ring30()
	m := models.MLP{Hidden: 8, Dropout: 0.2}
	runs := train.Runs([]int{0}, 1, 2)
	for _, batch := range []int{1, 2} {
		t, err := train.New(b, m, g, train.Config{Epochs: 30, LR: 0.05, WeightDecay: 5e-4, Backend: info, BatchSize: batch})
		if err != nil {
			panic(err)
		}
		res, err := t.Run(context.Background(), runs)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d run(s) per computation:", t.BatchSize())
		for _, rr := range res.Runs {
			fmt.Printf(" seed %d: best epoch %d, test %.3f;", rr.Seed, rr.BestEpoch, rr.TestAcc)
		}
		fmt.Println()
	}
	// Output:
	// 1 run(s) per computation: seed 1: best epoch 4, test 0.556; seed 2: best epoch 5, test 0.556;
	// 2 run(s) per computation: seed 1: best epoch 4, test 0.556; seed 2: best epoch 5, test 0.556;
}
