package buildinfo

import (
	"path/filepath"
	"strings"
)

// PluginOnGPU reports whether an XLA PJRT plugin (a name such as "cuda", a
// file such as .../xla_cuda13/xla_cuda_plugin.so, or a backend as results
// record it, "xla:xla_cuda_plugin.so,tf32=false") runs on a GPU (CUDA,
// ROCm), by its file's name. It lives here, below GoMLX, so that the
// backend (which starts plugins), the sparse engine (whose products take
// another form on a GPU) and the results (which read their records) tell
// a GPU the same way.
func PluginOnGPU(plugin string) bool { return pluginHas(plugin, "cuda", "rocm") }

// PluginOnAccelerator is PluginOnGPU with TPUs (and plugins named for a
// GPU generically) added.
func PluginOnAccelerator(plugin string) bool { return pluginHas(plugin, "cuda", "rocm", "tpu", "gpu") }

// pluginHas reports whether the plugin's file name, without a backend's
// "xla:" prefix and options, contains one of the words.
func pluginHas(plugin string, words ...string) bool {
	p, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(plugin)), ",")
	p = strings.TrimPrefix(p, "xla:")
	if p == "" {
		return false
	}
	base := filepath.Base(p)
	for _, w := range words {
		if strings.Contains(base, w) {
			return true
		}
	}
	return false
}
