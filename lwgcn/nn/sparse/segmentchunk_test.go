package sparse

import (
	"fmt"
	"strings"
	"testing"
)

// TestSegmentChunk: FormSegment loops over chunks only for blocks beyond
// SegmentLoopBytes on a CPU (1 MiB chunks), SegmentGPUChunkBytes on a GPU
// (chunks of that size).
func TestSegmentChunk(t *testing.T) {
	const f32 = 4
	for _, c := range []struct {
		name          string
		nnz, rowBytes int
		onGPU         bool
		want          int
	}{
		// Squirrel's LW-GCN products: 222,274 entries of 256 float32
		// columns (227 MB): 1 MiB chunks of 1,024 entries on a CPU.
		{"squirrel cpu", 222274, 256 * f32, false, 1 << 20 / (256 * f32)},
		// On a GPU, SegmentGPUChunkBytes (32 MiB) chunks.
		{"squirrel gpu", 222274, 256 * f32, true, 32 << 20 / (256 * f32)},
		// Ten runs side by side: 10,240-byte rows, still at least 256
		// entries per chunk on a CPU.
		{"squirrel 10 runs cpu", 222274, 2560 * f32, false, 256},
		{"squirrel 10 runs gpu", 222274, 2560 * f32, true, 32 << 20 / (2560 * f32)},
		// Cora's on a GPU: one block.
		{"cora gpu", 13264, 64 * f32, true, 0},
		// Cora's (13,264 entries of 64 columns, 3.4 MB): one block.
		{"cora cpu", 13264, 64 * f32, false, 0},
		// Just over SegmentLoopBytes: a loop on a CPU.
		{"over the limit", SegmentLoopBytes/(64*f32) + 1, 64 * f32, false, 1 << 20 / (64 * f32)},
		{"at the limit", SegmentLoopBytes / (64 * f32), 64 * f32, false, 0},
	} {
		if got := segmentChunk(c.nnz, c.rowBytes, c.onGPU); got != c.want {
			t.Errorf("%s: segmentChunk(%d, %d, gpu %v) = %d, want %d", c.name, c.nnz, c.rowBytes, c.onGPU, got, c.want)
		}
	}
}

// TestSegmentGPUChunk: on a GPU, SegmentGPUChunkBytes (or its variable)
// sets both the largest block and the chunk; 0 keeps one block.
func TestSegmentGPUChunk(t *testing.T) {
	defer func(b int) { SegmentGPUChunkBytes = b }(SegmentGPUChunkBytes)
	const nnz, row = 222274, 2560 * 4 // Squirrel, ten runs of 256 columns: 2.3 GB
	SegmentGPUChunkBytes = 0
	if got := segmentChunk(nnz, row, true); got != 0 {
		t.Errorf("no GPU chunk: %d entries per chunk, want one block", got)
	}
	SegmentGPUChunkBytes = 256 << 20
	if got, want := segmentChunk(nnz, row, true), 256<<20/row; got != want {
		t.Errorf("256 MiB: %d entries per chunk, want %d", got, want)
	}
	if got := segmentChunk(nnz, 256*4, true); got != 0 { // one run: 227 MB
		t.Errorf("256 MiB, one run: %d entries per chunk, want one block", got)
	}
	if got, want := segmentChunk(nnz, row, false), 256; got != want {
		t.Errorf("CPU: %d entries per chunk, want %d (SegmentChunkBytes)", got, want)
	}
	t.Setenv("LWGCN_SEGMENT_GPU_CHUNK_MIB", "64")
	if got, want := segmentChunk(nnz, row, true), 64<<20/row; got != want {
		t.Errorf("LWGCN_SEGMENT_GPU_CHUNK_MIB=64: %d entries per chunk, want %d", got, want)
	}
	t.Setenv("LWGCN_SEGMENT_GPU_CHUNK_MIB", "0")
	if got := segmentChunk(nnz, row, true); got != 0 {
		t.Errorf("LWGCN_SEGMENT_GPU_CHUNK_MIB=0: %d entries per chunk, want one block", got)
	}
	t.Setenv("LWGCN_SEGMENT_GPU_CHUNK_MIB", "lots")
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "LWGCN_SEGMENT_GPU_CHUNK_MIB") {
			t.Errorf("invalid value: panic %v, want one naming the variable", r)
		}
	}()
	segmentChunk(nnz, row, true)
}

// TestFormForDenseOverride: LWGCN_XLA_DENSE_MAX_NODES replaces
// XLADenseMaxNodes on XLA, not on pure Go.
func TestFormForDenseOverride(t *testing.T) {
	if got := FormFor("xla", 5201, 5201); got != FormSegment {
		t.Fatalf("default: Squirrel's adjacency in %s, want segment", got)
	}
	t.Setenv("LWGCN_XLA_DENSE_MAX_NODES", "6000")
	if got := FormFor("xla", 5201, 5201); got != FormDense {
		t.Errorf("LWGCN_XLA_DENSE_MAX_NODES=6000: %s, want dense", got)
	}
	if got := FormFor("xla", 6001, 6001); got != FormSegment {
		t.Errorf("LWGCN_XLA_DENSE_MAX_NODES=6000, 6001 nodes: %s, want segment", got)
	}
	if got := FormFor("go", 100, 100); got != FormELL {
		t.Errorf("pure Go: %s, want ell", got)
	}
}
