package buildinfo

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// EnvGCN2Loop set to "off" (or "0", "false", "no") builds GCNII's layers
// unrolled on every backend (nn.UseGCN2Loop), for A/B runs of the loop XLA
// otherwise runs; results record it (results.Provenance.Forms). It lives
// here, below GoMLX, so that the host-only packages reading it (results)
// do not link GoMLX.
const EnvGCN2Loop = "LWGCN_GCN2_LOOP"

// GCN2LoopOn reads EnvGCN2Loop: on when unset; an unknown value is an error
// naming the variable.
func GCN2LoopOn() (bool, error) { return onOff(EnvGCN2Loop) }

// onOff reads an on/off switch from the environment variable env: on when
// unset.
func onOff(env string) (bool, error) {
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv(env))); v {
	case "", "1", "true", "t", "yes", "on", "enabled":
		return true, nil
	case "0", "false", "f", "no", "off", "disabled":
		return false, nil
	default:
		return true, fmt.Errorf("%s=%q: want on or off", env, v)
	}
}

// EnvHashMasks set to "off" (or "0", "false", "no") draws the dropout masks
// on backends other than pure Go from the backend's RngBitGenerator (XLA's
// Philox) instead of nn's counter-based hash, for A/B runs; results record
// it (results.Provenance.Forms: "rng-masks").
const EnvHashMasks = "LWGCN_HASH_MASKS"

// HashMasksOn reads EnvHashMasks: on when unset; an unknown value is an
// error naming the variable.
func HashMasksOn() (bool, error) { return onOff(EnvHashMasks) }

// EnvXLADenseMaxNodes, an integer, replaces sparse.XLADenseMaxNodes (the
// largest adjacency, in nodes, whose products run as a dense GEMM on XLA)
// for A/B runs of the forms on a device (xla/gpu-check.sh); results record
// it (results.Provenance.Forms: "dense-max-nodes=N").
const EnvXLADenseMaxNodes = "LWGCN_XLA_DENSE_MAX_NODES"

// XLADenseMaxNodes reads EnvXLADenseMaxNodes: set reports whether it is;
// a value that is not a non-negative integer is an error naming the
// variable.
func XLADenseMaxNodes() (n int, set bool, err error) { return count(EnvXLADenseMaxNodes) }

// EnvSegmentGPUChunkMiB, an integer, replaces sparse.SegmentGPUChunkBytes
// (on a GPU, the segment products' chunk, in MiB; 0: one block at any
// size) for A/B runs; results record it (results.Provenance.Forms:
// "segment-gpu-chunk=N MiB").
const EnvSegmentGPUChunkMiB = "LWGCN_SEGMENT_GPU_CHUNK_MIB"

// SegmentGPUChunkMiB reads EnvSegmentGPUChunkMiB as XLADenseMaxNodes reads
// its variable.
func SegmentGPUChunkMiB() (n int, set bool, err error) { return count(EnvSegmentGPUChunkMiB) }

// count reads a non-negative integer from the environment variable env.
func count(env string) (int, bool, error) {
	v, ok := os.LookupEnv(env)
	if !ok || strings.TrimSpace(v) == "" {
		return 0, false, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, true, fmt.Errorf("%s=%q: want a non-negative integer", env, v)
	}
	return n, true, nil
}
