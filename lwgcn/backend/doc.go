// Package backend picks the GoMLX compute backend every lwgcn run uses and
// describes it in one line.
//
// Selection follows GOMLX_BACKEND when it is set ("go", "xla:cpu",
// "xla:cuda", ...). When it is unset, XLA is tried first (GoMLX's own default),
// and when XLA cannot be had (not compiled in, plugin missing and its
// auto-install failing or timing out) the pure-Go backend is used and the line
// printed at start says why. Nothing falls back silently and nothing waits
// on a download for longer than XLATimeout.
//
// XLA support is compiled in when cgo is available (the PJRT bridge needs a C
// compiler at build time; the plugin itself is loaded with dlopen at run
// time); build with the tag "noxla" to leave it out. Without XLA the package
// only links the pure-Go backend.
//
// Fusion: GoMLX's GOMLX_FUSION switch decides, at graph-building time,
// whether nn.Dense, activations and softmax use the Go backend's fused
// kernels. lwgcn sets it to DefaultFusion (measured, see DefaultFusion) when
// the user did not set it, and says so in the backend line.
package backend
