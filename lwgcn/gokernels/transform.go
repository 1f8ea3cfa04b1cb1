package gokernels

import (
	"sync"
	"sync/atomic"

	gb "github.com/gomlx/compute/gobackend"
)

// Counts of rewritten nodes since the program started (tests check that a
// kernel took effect).
var fusedGatherSums, markedRowGathers, markedRowScatters, fusedDropoutMasks, fusedELLProducts, fusedAdam, fusedWeightGrads, fusedSmallDots atomic.Int64

// transposesRun counts the transposes the transpose kernel ran,
// weightGradsRun, smallDotsRun and largeDotsRun the products the
// weightgrad, smalldot and largedot kernels ran.
var transposesRun, weightGradsRun, smallDotsRun, largeDotsRun atomic.Int64

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
	if rowScatter.On() {
		markRowScatters(b)
	}
	if adamK.On() {
		fuseAdam(b)
	}
	if weightGradK.On() {
		fuseWeightGrads(b)
	}
	if smallDotK.On() {
		fuseSmallDots(b)
	}
	if afterTransform != nil {
		afterTransform(b)
	}
	return false, nil
}

// afterTransform, when set (tests), sees every graph after the rewrite.
var afterTransform func(b *gb.Builder)

// rewrite replaces, in every function of b, each node that match accepts
// with the fused node it describes (new inputs and Data), in place: the
// node's position keeps the DAG order, and the nodes it no longer reads
// become dead code. count counts the rewrites.
func rewrite[D any](b *gb.Builder, count *atomic.Int64, match func(n *gb.Node, u map[*gb.Node]int) (D, []*gb.Node, bool)) {
	for _, f := range b.Functions {
		u := uses(f)
		for _, n := range f.Nodes {
			if d, inputs, ok := match(n, u); ok {
				n.Inputs, n.Data = inputs, d
				count.Add(1)
			}
		}
	}
}

// inParallel runs work(i) for every i < n on the calling goroutine and, when
// parallel, on the backend's idle workers (each i once, in no set order).
func inParallel(backend *gb.Backend, n int, parallel bool, work func(i int)) {
	var next atomic.Int64
	loop := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			work(i)
		}
	}
	var wg sync.WaitGroup
	if parallel && backend.Workers != nil && backend.Workers.IsEnabled() && n > 1 {
		for range min(backend.Workers.AdjustedMaxParallelism(), n) - 1 {
			wg.Add(1)
			if !backend.Workers.StartIfAvailable(func() { defer wg.Done(); loop() }) {
				wg.Done()
				break
			}
		}
	}
	loop()
	if backend.Workers != nil {
		backend.Workers.WorkerIsAsleep()
		wg.Wait()
		backend.Workers.WorkerRestarted()
	}
}

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
