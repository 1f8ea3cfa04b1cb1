//go:build goexperiment.simd

package buildinfo

// SIMD reports whether the binary was built with GOEXPERIMENT=simd.
const SIMD = true
