// Package buildinfo reports how this binary was built and where it runs: the
// Go version, whether GoMLX's pure-Go backend has its SIMD kernels
// (GOEXPERIMENT=simd, ~35x faster matrix products), the source commit and the
// machine. Every result file records it as provenance. The commit is the one
// `make build` stamps at link time, else Go's VCS stamp, else git asked in
// the repository around the current directory, else "unknown".
package buildinfo
