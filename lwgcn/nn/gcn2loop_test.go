package nn_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
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

// TestUseGCN2Loop: the loop on XLA from GCN2LoopMinLayers layers, never on
// pure Go, and off for every backend with LWGCN_GCN2_LOOP=off; an invalid
// value names the variable.
func TestUseGCN2Loop(t *testing.T) {
	m := nn.GCN2LoopMinLayers
	for _, c := range []struct {
		env, backend string
		layers       int
		want         bool
	}{
		{"", "xla", m, true}, {"", "xla", m - 1, false}, {"", "go", 64, false},
		{"off", "xla", 64, false}, {"0", "xla", 64, false}, {"on", "xla", 64, true},
	} {
		t.Setenv(buildinfo.EnvGCN2Loop, c.env)
		if got := nn.UseGCN2Loop(c.backend, c.layers); got != c.want {
			t.Errorf("%s=%q on %s with %d layers: %v, want %v", buildinfo.EnvGCN2Loop, c.env, c.backend, c.layers, got, c.want)
		}
	}
	t.Setenv(buildinfo.EnvGCN2Loop, "sometimes")
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), buildinfo.EnvGCN2Loop) {
			t.Fatalf("invalid value: panic %v, want one naming %s", r, buildinfo.EnvGCN2Loop)
		}
	}()
	nn.UseGCN2Loop("xla", 64)
}
