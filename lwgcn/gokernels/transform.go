package gokernels

import (
	"sync/atomic"

	gb "github.com/gomlx/compute/gobackend"
)

// Counts of rewritten nodes since the program started (tests check that a
// kernel took effect).
var fusedGatherSums, markedRowGathers, fusedDropoutMasks, fusedELLProducts, fusedAdam, fusedWeightGradients atomic.Int64

// transformPriority runs lwgcn's transformation after the backend's own
// passes (ImplicitBroadcastFusion is 100), so that it sees broadcasts
// already folded into the binary ops.
const transformPriority = 50

func init() {
	gb.RegisterTransformation(transformPriority, transformation{})
}

// transformation rewrites a computation for the kernels that are on when
// it is compiled.
type transformation struct{}

func (transformation) Name() string { return "lwgcn/gokernels" }

func (transformation) Apply(b *gb.Builder) (dagModified bool, err error) {
	if gatherSum.On() {
		fuseGatherSums(b)
		if ellProduct.On() {
			fuseELLProducts(b)
		}
	}
	if dropoutMaskK.On() {
		fuseDropoutMasks(b)
	}
	if rowGather.On() {
		markRowGathers(b)
	}
	if adamK.On() {
		fuseAdam(b)
	}
	if weightGradient.On() {
		fuseWeightGradients(b)
	}
	if afterTransform != nil {
		afterTransform(b)
	}
	return false, nil
}

// afterTransform, when set (tests), sees every graph after the rewrite.
var afterTransform func(b *gb.Builder)

// uses counts, per node of f, its consumers (inputs of other nodes, captured
// inputs of closures, and f's outputs).
func uses(f *gb.Function) map[*gb.Node]int {
	u := make(map[*gb.Node]int, len(f.Nodes))
	for _, n := range f.Nodes {
		for _, in := range n.Inputs {
			u[in]++
		}
		for _, c := range n.CapturedInputs {
			for _, in := range c {
				u[in]++
			}
		}
	}
	for _, o := range f.Outputs {
		u[o]++
	}
	for _, p := range f.CapturedParentNodes {
		u[p]++
	}
	return u
}

// live returns the nodes of f its outputs depend on (a rewrite leaves the
// nodes it replaced behind, with their inputs, until the backend drops them).
func live(f *gb.Function) map[*gb.Node]bool {
	seen := make(map[*gb.Node]bool, len(f.Nodes))
	stack := append([]*gb.Node(nil), f.Outputs...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, n.Inputs...)
		for _, c := range n.CapturedInputs {
			stack = append(stack, c...)
		}
	}
	return seen
}
