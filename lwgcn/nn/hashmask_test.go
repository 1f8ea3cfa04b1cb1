package nn_test

import (
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestHashMask: the hash masks against their formula on the host (lwgcn/parity
// runs the same check on XLA, where they are drawn).
func TestHashMask(t *testing.T) { nntest.CompareHashMask(t, nntest.Backend(t)) }

// TestUseHashMasks: on every backend but pure Go, unless switched off; an
// invalid switch panics with its name.
func TestUseHashMasks(t *testing.T) {
	if nn.UseHashMasks("go") || !nn.UseHashMasks("xla") {
		t.Errorf("UseHashMasks: go %v, xla %v; want false, true", nn.UseHashMasks("go"), nn.UseHashMasks("xla"))
	}
	t.Setenv("LWGCN_HASH_MASKS", "off")
	if nn.UseHashMasks("xla") {
		t.Error("LWGCN_HASH_MASKS=off: hash masks on XLA")
	}
	t.Setenv("LWGCN_HASH_MASKS", "maybe")
	defer func() {
		if r := recover(); r == nil {
			t.Error("LWGCN_HASH_MASKS=maybe: no panic")
		}
	}()
	nn.UseHashMasks("xla")
}
