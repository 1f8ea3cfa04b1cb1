package sparse

import "testing"

// TestSegmentChunk: FormSegment loops over chunks only on a CPU and only
// for blocks beyond SegmentLoopBytes; on a GPU every product is one block.
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
		{"squirrel gpu", 222274, 256 * f32, true, 0},
		// Ten runs side by side: 10,240-byte rows, still at least 256
		// entries per chunk.
		{"squirrel 10 runs cpu", 222274, 2560 * f32, false, 256},
		{"squirrel 10 runs gpu", 222274, 2560 * f32, true, 0},
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
