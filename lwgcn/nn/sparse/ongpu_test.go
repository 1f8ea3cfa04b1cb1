package sparse

import (
	"testing"

	"github.com/gomlx/compute"
)

// pluginBackend is a backend that only answers Name and PluginName.
type pluginBackend struct {
	compute.Backend
	name, plugin string
}

func (b pluginBackend) Name() string       { return b.name }
func (b pluginBackend) PluginName() string { return b.plugin }

func TestOnGPU(t *testing.T) {
	for _, c := range []struct {
		b    compute.Backend
		want bool
	}{
		{nil, false},
		{pluginBackend{name: "go"}, false},
		{pluginBackend{name: "xla", plugin: "cpu"}, false},
		{pluginBackend{name: "xla", plugin: "/opt/venv/lib/jax_plugins/xla_cuda13/xla_cuda_plugin.so"}, true},
		{pluginBackend{name: "xla", plugin: "cuda"}, true},
		{pluginBackend{name: "xla", plugin: "rocm"}, true},
		// A CPU plugin under a directory named for CUDA is still a CPU.
		{pluginBackend{name: "xla", plugin: "/opt/cuda/pjrt_c_api_cpu_plugin.so"}, false},
	} {
		if got := onGPU(c.b); got != c.want {
			t.Errorf("onGPU(%#v) = %v, want %v", c.b, got, c.want)
		}
	}
}
