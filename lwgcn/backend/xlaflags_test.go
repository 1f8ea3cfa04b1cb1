package backend

import (
	"os"
	"strings"
	"testing"
)

func TestWithGPUDefaults(t *testing.T) {
	for _, c := range []struct {
		in, want string
		added    bool
	}{
		{"", "--xla_gpu_autotune_level=0", true},
		{"--xla_dump_to=/tmp/x", "--xla_dump_to=/tmp/x --xla_gpu_autotune_level=0", true},
		{"--xla_gpu_autotune_level=4", "--xla_gpu_autotune_level=4", false},
		{" --xla_dump_to=/d  --xla_gpu_autotune_level=2 ", " --xla_dump_to=/d  --xla_gpu_autotune_level=2 ", false},
		// Another flag that begins alike is not the autotuning level.
		{"--xla_gpu_autotune_level_x=1", "--xla_gpu_autotune_level_x=1 --xla_gpu_autotune_level=0", true},
	} {
		got, added := withGPUDefaults(c.in)
		if got != c.want || added != c.added {
			t.Errorf("withGPUDefaults(%q) = %q, %v; want %q, %v", c.in, got, added, c.want, c.added)
		}
	}
}

func TestSetGPUDefaultsOnlyForGPUPlugins(t *testing.T) {
	for _, c := range []struct {
		plugin string
		gpu    bool
	}{
		{"/opt/venv/lib/python3.12/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so", true},
		{"cuda", true},
		{"/x/pjrt_c_api_rocm_plugin.so", true},
		{"/work/main/build/xla/pjrt_c_api_cpu_plugin.so", false},
		{"cpu", false},
	} {
		t.Setenv(EnvXLAFlags, "--xla_dump_to=/d")
		added := setGPUDefaults(c.plugin)
		flags := os.Getenv(EnvXLAFlags)
		if added != c.gpu || strings.Contains(flags, autotuneFlag) != c.gpu {
			t.Errorf("setGPUDefaults(%q) = %v, XLA_FLAGS %q; want the autotuning flag added: %v", c.plugin, added, flags, c.gpu)
		}
	}
}

func TestXLAFlagsInLine(t *testing.T) {
	i := Info{Name: "xla:xla_cuda_plugin.so,tf32=false", Requested: "xla:/p/xla_cuda_plugin.so,tf32=false",
		Plugin: "/p/xla_cuda_plugin.so", PJRTVersion: "0.115", XLAFlags: "--xla_gpu_autotune_level=0", XLAFlagsAdded: true}
	line := i.String()
	for _, want := range []string{`XLA_FLAGS="--xla_gpu_autotune_level=0"`, "lwgcn's GPU default"} {
		if !strings.Contains(line, want) {
			t.Errorf("backend line %q lacks %q", line, want)
		}
	}
	i.XLAFlagsAdded = false
	if line := i.String(); strings.Contains(line, "lwgcn's GPU default") {
		t.Errorf("backend line %q credits lwgcn with flags the user set", line)
	}
}

func TestOnGPU(t *testing.T) {
	for _, c := range []struct {
		i    Info
		want bool
	}{
		{Info{Name: "xla:xla_cuda_plugin.so,tf32=false", Plugin: "/opt/jax_plugins/xla_cuda13/xla_cuda_plugin.so"}, true},
		{Info{Name: "xla:rocm", Plugin: "/x/pjrt_c_api_rocm_plugin.so"}, true},
		{Info{Name: "xla:cpu", Plugin: "/work/build/xla/pjrt_c_api_cpu_plugin.so"}, false},
		{Info{Name: "go"}, false},
	} {
		if got := c.i.OnGPU(); got != c.want {
			t.Errorf("%+v.OnGPU() = %v, want %v", c.i, got, c.want)
		}
	}
}
