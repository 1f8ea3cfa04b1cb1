package parity

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TestSegmentGPUChunksOnXLA: the segment products' GPU path (one block up
// to sparse.SegmentGPUChunkBytes, While-loop chunks of that size beyond;
// SegmentLoopBytes and SegmentChunkBytes do not apply there) computes A·x
// and its gradient as the host does. Without a GPU, XLA CPU's plugin runs
// under a file name that reads as a GPU's (a symlink named for ROCm), so
// that `make test` covers the path.
func TestSegmentGPUChunksOnXLA(t *testing.T) {
	_, xlaB := backends(t)
	gpuB := xlaB
	if !shared.xlaInfo.OnGPU() {
		if shared.xlaInfo.Plugin == "" {
			t.Skip("the XLA backend names no plugin file")
		}
		link := filepath.Join(t.TempDir(), "xla_rocm_cpu_plugin.so")
		if err := os.Symlink(shared.xlaInfo.Plugin, link); err != nil {
			t.Fatal(err)
		}
		t.Setenv(backend.EnvXLAFlags, os.Getenv(backend.EnvXLAFlags)) // a GPU plugin adds lwgcn's GPU flags
		b, info, err := backend.NewFor("xla:" + link)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Finalize()
		if !info.OnGPU() {
			t.Fatalf("%s: not taken for a GPU plugin", link)
		}
		gpuB = b
	}
	defer func(loop, chunk, gpu int) {
		sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes = loop, chunk, gpu
	}(sparse.SegmentLoopBytes, sparse.SegmentChunkBytes, sparse.SegmentGPUChunkBytes)
	// The CPU limits would never loop (and, were they read, always would):
	// only the GPU chunk decides.
	sparse.SegmentLoopBytes, sparse.SegmentChunkBytes = 1<<40, 1
	rng := rand.New(rand.NewPCG(seed, 37))
	const runs, h = 2, 8
	m := formMatrix(t, 600, 600, 3, true, rng)
	x, w, runVals := make([]float32, m.NumCols*runs*h), make([]float32, m.NumRows*runs*h), make([]float32, m.NNZ()*runs)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	for i := range runVals {
		runVals[i] = float32(rng.Float64() * 2)
	}
	wantY, wantG := formReference(m, x, w, runs, h, runVals)
	for _, c := range []struct {
		name  string
		chunk int // SegmentGPUChunkBytes
		loops int
	}{
		{"one block (no GPU chunk)", 0, 0},
		{"one block (the chunk holds every entry)", 1 << 30, 0},
		{"256-entry chunks", 1, 2},
	} {
		sparse.SegmentGPUChunkBytes = c.chunk
		y, g, ops, _ := formProduct(t, gpuB, m, x, w, runs, h, runVals, sparse.FormSegment)
		if got := ops[graph.NodeTypeWhile]; got != c.loops {
			t.Errorf("%s: %d While loops, want %d", c.name, got, c.loops)
		}
		if d := Compare(y, wantY, OutputTolerance); !d.OK() {
			t.Errorf("%s: A·x differs from the host's: %s", c.name, d)
		}
		if d := Compare(g, wantG, OutputTolerance); !d.OK() {
			t.Errorf("%s: gradient Aᵀ·w differs from the host's: %s", c.name, d)
		}
	}
}
