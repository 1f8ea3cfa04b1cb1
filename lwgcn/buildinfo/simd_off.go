//go:build !goexperiment.simd

package buildinfo

// SIMD reports whether the binary was built with GOEXPERIMENT=simd.
const SIMD = false

// vectorKernels: without SIMD the Go backend has no vector kernels.
func vectorKernels() (string, string) { return "", "" }
