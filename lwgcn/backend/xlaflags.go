package backend

import (
	"fmt"
	"os"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
)

// EnvXLAFlags is XLA's own flags variable, read when a plugin starts.
const EnvXLAFlags = "XLA_FLAGS"

// GPUAutotuneLevel is the --xla_gpu_autotune_level lwgcn gives XLA's GPU
// compiler unless XLA_FLAGS sets one: 0 turns autotuning off. At XLA's
// default (4: every matrix product and fusion is timed on the device over
// candidate kernels) an H200 compiled Texas' full LW-GCN epoch graphs in
// 81.1 s and Chameleon's in 27.5 s; at 0 in 10.8 and 7.8 s, at the same
// 1.5 ms per epoch (xla/README.md, "GPU"). These graphs are many small ops,
// where the tuned kernels gain nothing measurable.
const GPUAutotuneLevel = 0

const autotuneFlag = "--xla_gpu_autotune_level"

// withGPUDefaults returns the XLA flags flags with lwgcn's GPU defaults
// added (GPUAutotuneLevel), and whether it added any: a flag the user set
// is kept as set.
func withGPUDefaults(flags string) (string, bool) {
	for _, f := range strings.Fields(flags) {
		if f == autotuneFlag || strings.HasPrefix(f, autotuneFlag+"=") {
			return flags, false
		}
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s=%d", flags, autotuneFlag, GPUAutotuneLevel)), true
}

// setGPUDefaults adds lwgcn's GPU defaults to XLA_FLAGS in this process
// (and the workers it starts) before a GPU plugin starts, and reports
// whether it added any.
func setGPUDefaults(plugin string) bool {
	if !buildinfo.PluginOnGPU(plugin) {
		return false
	}
	flags, added := withGPUDefaults(os.Getenv(EnvXLAFlags))
	if added {
		os.Setenv(EnvXLAFlags, flags)
	}
	return added
}
