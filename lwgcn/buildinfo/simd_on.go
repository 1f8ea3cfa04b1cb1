//go:build goexperiment.simd

package buildinfo

import (
	"os"
	"runtime"
	"simd/archsimd"
)

// SIMD reports whether the binary was built with GOEXPERIMENT=simd.
const SIMD = true

// vectorKernels is the vector kernels the Go backend uses on this CPU and
// why not AVX-512 ("" off x86: the backend's x86 kernels do not apply).
func vectorKernels() (string, string) {
	if runtime.GOARCH != "amd64" {
		return "", ""
	}
	return vectorChoice(archsimd.X86.AVX2(), archsimd.X86.AVX512(), os.Getenv)
}
