package buildinfo

import "testing"

func TestPluginOnGPU(t *testing.T) {
	for _, c := range []struct {
		plugin   string
		gpu, acc bool
	}{
		{"", false, false},
		{"cpu", false, false},
		{"cuda", true, true},
		{"rocm", true, true},
		{"tpu", false, true},
		{"/opt/venv/lib/jax_plugins/xla_cuda13/xla_cuda_plugin.so", true, true},
		{"xla:xla_cuda_plugin.so,tf32=false", true, true},
		{"xla:cuda", true, true},
		{"xla:cpu", false, false},
		// A CPU plugin in a directory named for CUDA is a CPU; so is a
		// CPU plugin with an option mentioning a GPU.
		{"/opt/cuda/pjrt_c_api_cpu_plugin.so", false, false},
		{"xla:cpu,gpu=none", false, false},
	} {
		if got := PluginOnGPU(c.plugin); got != c.gpu {
			t.Errorf("PluginOnGPU(%q) = %v, want %v", c.plugin, got, c.gpu)
		}
		if got := PluginOnAccelerator(c.plugin); got != c.acc {
			t.Errorf("PluginOnAccelerator(%q) = %v, want %v", c.plugin, got, c.acc)
		}
	}
}
