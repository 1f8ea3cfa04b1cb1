// Package gokernels adds fused kernels to GoMLX's pure-Go backend (compute
// v0.1.14 with the extension-points patch of third_party/, see
// third_party/README.md), through the hooks the backend's own op packages
// use: node executors by priority and graph transformations at compile
// time. Nothing here changes what a computation computes: each kernel
// is tested bit-identical to the backend's own ops (same operations,
// same summation order), and each can be switched off by its environment
// variable for A/B runs (LWGCN_KERNEL_<NAME>=off, or LWGCN_KERNELS=off for
// all; see Kernels).
//
// The kernels:
//
//   - rowgather: Gather of whole rows (x[idx] for x [N, H]), the form every
//     gather of lwgcn takes, as a copy per row instead of the backend's
//     generic per-element iterator.
//   - rowscatter: ScatterSum, ScatterMax and ScatterMin of whole rows
//     (out[idx[e]] combined with updates[e]: the attention models' segment
//     softmaxes and messages, and every Gather's gradient) as one loop per
//     update row instead of the backend's generic per-index iterator; rows
//     split among idle workers at row boundaries when the indices ascend.
//   - gathersum: the sparse products' gather-and-sum (nn/sparse's ELL
//     chunks: Gather [K, r, H], an optional per-slot weight, ReduceSum over
//     K) in one pass that never writes the [K, r, H] block, reading the
//     operand's appended zero row in place; a row's 64 columns per pass
//     over its slots in assembly on AVX-512 hosts (gathersum_amd64.s).
//   - rng: the random bits of RNGBitGenerator written 8 bytes per draw (the
//     backend writes one byte per loop iteration), in 4 interleaved chains
//     and, for large outputs, in parts on idle workers, each from the PCG's
//     state advanced to its first draw: the same stream.
//   - ellproduct: nn/sparse's whole product (its chunks' concatenation,
//     the position gather back to row order and the row scale) computed
//     straight into the output rows, in row blocks on the backend's idle
//     workers.
//   - adam: train.Optimizer's Adam updates, each moment and the parameter in
//     one pass (the backend runs 4 to 6 ops each).
//   - transpose: 2-D transposes of 4-byte values (the ones graph building
//     inserts before the weight gradients' products) as a blocked copy
//     through registers, 8 x 8 tiles through SIMD shuffles where the CPU
//     has AVX2.
//   - weightgrad: a weight gradient xᵀ·dy (a product contracting the first
//     axis of both operands, which the backend runs as two transposes, the
//     packing of both and its matrix kernel) read straight from x and dy in
//     8 x 32 tiles (an assembly loop, weightgrad_amd64.s), in the backend's
//     own order (fused multiply-adds in row order, panels of 192 rows); on
//     AVX-512 hosts, for the products the backend's large kernel would run.
//     The panels are the outer loop, so each panel of x and dy is read once
//     for all tiles.
//   - largedot: the other products the backend's large AVX-512 kernel runs
//     (x·W and x·Wᵀ: a layer's forward pass and input gradient), in
//     weightgrad's tiles read straight from the operands, in the same
//     order, split by rows over the backend's workers; only where it has
//     two or more (the backend runs one product on one core, and its packed
//     kernel is as fast at one thread).
//   - smalldot: the float32 products the backend's small AVX-512 kernel
//     runs (4 x 4 tiles of dot products along the contracting axis, 4 x 16
//     tiles along the columns, scalar loops for what the tiles leave over)
//     computed 16 output columns at a time (assembly, smalldot_amd64.s),
//     each value with that kernel's operations in its order; where that
//     kernel is faster (few rows of a transposed operand, long dot products
//     into fewer than 16 columns) the product stays with it.
//   - dropoutmask: nn.DropoutMask's chain (RandomUniform's conversion of
//     the bits, scale, Abs and Min, the comparison with the rate and the
//     Where) in one pass over the bits.
//
// Importing the package registers them (nn/sparse imports it, so every
// lwgcn model runs with them); Describe says which are on, and results
// record it.
package gokernels
