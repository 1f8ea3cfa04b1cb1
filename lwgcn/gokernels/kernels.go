package gokernels

import (
	"os"
	"strings"
	"sync/atomic"
)

// Kernel is one kernel and its switch.
type Kernel struct {
	// Name is the kernel's name ("gathersum").
	Name string
	// Env is the environment variable that turns it off ("LWGCN_KERNEL_GATHERSUM=off").
	Env string
	// What says what it replaces, in one line.
	What string
	on   atomic.Bool
}

// EnvAll turns every kernel off when set to an off value ("off", "0",
// "false", "no").
const EnvAll = "LWGCN_KERNELS"

var (
	rowGather    = newKernel("rowgather", "Gather of whole rows as one copy per row")
	rowScatter   = newKernel("rowscatter", "ScatterSum/Max/Min of whole rows (graph.ScatterSum's form, Gather's gradient) as one loop per row, split at row boundaries when the indices ascend")
	gatherSum    = newKernel("gathersum", "the sparse products' Gather, per-slot weight and ReduceSum in one pass")
	rng          = newKernel("rng", "RNGBitGenerator's bits written 8 bytes per draw, in interleaved chains and parts on idle workers (same stream)")
	ellProduct   = newKernel("ellproduct", "a sparse product's chunks computed straight into their output rows, with the row scale (no concatenation, position gather or scaling pass); needs gathersum")
	adamK        = newKernel("adam", "train.Optimizer's Adam updates (moments and parameter, with weight decay) in one pass each")
	transposeK   = newKernel("transpose", "2-D transposes of 4-byte values as a blocked copy (the backend's generic one cost more than the product it feeds)")
	dropoutMaskK = newKernel("dropoutmask", "a dropout mask from the random bits in one pass (RandomUniform's five ops and the Where)")
	weightGradK  = newKernel("weightgrad", "a weight gradient xᵀ·dy read straight from x and dy (no transposes of both, no packing), in compute's AVX-512 product's order")
	smallDotK    = newKernel("smalldot", "compute's small AVX-512 float32 products (its 4x4 tiles of dot products, the scalar loops for the rows and columns they leave) vectorised along the output's columns, in its order")
	largeDotK    = newKernel("largedot", "compute's large AVX-512 float32 products in weightgrad's 8x32 tiles read straight from the operands (no packing), in its order")
)

// Kernels lists every kernel, in a fixed order.
var Kernels = []*Kernel{rowGather, rowScatter, gatherSum, ellProduct, rng, dropoutMaskK, adamK, transposeK, weightGradK, smallDotK, largeDotK}

func newKernel(name, what string) *Kernel {
	k := &Kernel{Name: name, Env: "LWGCN_KERNEL_" + strings.ToUpper(name), What: what}
	k.on.Store(!isOff(os.Getenv(EnvAll)) && !isOff(os.Getenv(k.Env)))
	return k
}

// isOff reports whether an environment value turns a kernel off.
func isOff(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}

// On reports whether the kernel is on.
func (k *Kernel) On() bool { return k.on.Load() }

// Set turns the kernel on or off from now on (computations compiled
// before keep the form they were compiled with) and returns a function that
// restores the previous state (for tests and A/B runs in one process).
func (k *Kernel) Set(on bool) (restore func()) {
	prev := k.on.Swap(on)
	return func() { k.on.Store(prev) }
}

// SetAll sets every kernel and returns a function that restores them.
func SetAll(on bool) (restore func()) {
	var rs []func()
	for _, k := range Kernels {
		rs = append(rs, k.Set(on))
	}
	return func() {
		for _, r := range rs {
			r()
		}
	}
}

// Active lists the names of the kernels that are on.
func Active() []string {
	var names []string
	for _, k := range Kernels {
		if k.On() {
			names = append(names, k.Name)
		}
	}
	return names
}

// Engine names the compute source lwgcn is built with (the module replaced
// by third_party/compute, see its README).
const Engine = "compute v0.1.14 + lwgcn patches (third_party/patches/compute)"
