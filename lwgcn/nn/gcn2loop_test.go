package nn_test

import (
	"math/rand/v2"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
)

// TestGCN2ConvLoop: the loop computes what the unrolled layers do, values
// and gradients (of every layer's weight and of h0), with and without
// dropout (the same masks), in training and evaluation passes, for one run
// and for two (nntest.CompareGCN2Loop; lwgcn/parity runs it on XLA).
func TestGCN2ConvLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	for _, runs := range []int{1, 2} {
		var undropped []float64
		for _, dropout := range []float64{0, 0.5} {
			for _, train := range []bool{true, false} {
				nntest.CompareGCN2Loop(t, nntest.Backend(t), runs, dropout, train, &undropped, rng)
			}
		}
	}
}
