// Package backend picks the GoMLX compute backend every lwgcn run uses and
// describes it in one line.
//
// Selection follows GOMLX_BACKEND when it is set ("go", "xla:cpu",
// "xla:cuda", "xla:/abs/path/pjrt_c_api_cpu_plugin.so", ...). When it is
// unset, DefaultBackend runs (the pure-Go backend: at this project's graph
// sizes and run lengths faster than XLA CPU once XLA's compile is counted;
// see DefaultReason), and nothing is
// downloaded. A backend that was asked for and cannot be had is an error in
// one line naming the plugin file and what failed; lwgcn never falls back
// to another backend behind the user's back.
//
// XLA plugins: "xla:<name>" loads, in order, the file LWGCN_XLA_PLUGIN names
// (for "cpu"), else pjrt_c_api_<name>_plugin.so from PJRT_PLUGIN_LIBRARY_PATH
// when set, else from the project's build/xla (what `make xla` installs from
// a pinned PyPI wheel), ~/.local/lib/go-xla and /usr/local/lib/go-xla (where
// go-xla's own installer puts it). When no file is found the request fails
// saying to run `make xla`: go-xla's download of the latest plugin from
// GitHub (unchecked) is never used (no installer is linked, its switch is
// off and GOMLX_NO_AUTO_INSTALL is set). Before go-xla touches a file,
// CheckPluginFile reads its ELF headers (missing, directory, not a shared
// library, other CPU, truncated, no GetPjrtApi), and after dlopen the
// plugin's PJRT C API version must be at least 0.MinPJRTMinor. go-xla's
// panics are recovered into errors and its log output is muted while it
// loads; the whole start is bounded by XLATimeout (LWGCN_XLA_TIMEOUT). A
// plugin that crashes inside its own C code cannot be caught in-process;
// the checks above keep the known bad files away from dlopen.
//
// GPU plugins (CUDA, ROCm): before one starts, lwgcn adds
// --xla_gpu_autotune_level=GPUAutotuneLevel (0) to XLA_FLAGS unless the
// user set that flag (measured: an H200 compiled the full LW-GCN epoch 3.5
// to 7.5 times faster, at the same ms per epoch). The backend line and
// every result record XLA_FLAGS as XLA read it.
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
