package backend

import (
	"os"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

func TestGoRequested(t *testing.T) {
	t.Setenv(EnvBackend, "go")
	t.Setenv(EnvFusion, "")
	os.Unsetenv(EnvFusion)
	b, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	if info.Name != "go" || info.Requested != "go" || !info.IsGo() || info.Plugin != "" {
		t.Fatalf("info = %+v, want the go backend as requested", info)
	}
	// GOMLX_FUSION was unset: lwgcn's default is set in the environment and
	// reported as such.
	if got := os.Getenv(EnvFusion); (got == "1") != DefaultFusion || info.Fusion != DefaultFusion || info.FusionSet {
		t.Fatalf("GOMLX_FUSION=%q, info fusion %v (set %v), want default %v", got, info.Fusion, info.FusionSet, DefaultFusion)
	}
	line := info.String()
	for _, want := range []string{"backend: go (pure Go, SIMD ", "fusion " + onOff(DefaultFusion) + ": lwgcn default",
		"GOMLX_BACKEND=go", kernelsPhrase()} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "\n") {
		t.Errorf("line %q has a newline", line)
	}
}

func TestFusionSetByUser(t *testing.T) {
	t.Setenv(EnvBackend, "go")
	t.Setenv(EnvFusion, "1")
	_, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if !info.Fusion || !info.FusionSet || !strings.Contains(info.String(), "fusion on: GOMLX_FUSION set") {
		t.Fatalf("info %+v, line %q", info, info)
	}
	t.Setenv(EnvFusion, "maybe")
	if _, _, err := New(); err == nil || !strings.Contains(err.Error(), "GOMLX_FUSION") {
		t.Fatalf("invalid GOMLX_FUSION: err = %v", err)
	}
}

// TestUnsetIsTheMeasuredDefault: with GOMLX_BACKEND unset the default backend
// runs, nothing is downloaded, and the line says why it was chosen.
func TestUnsetIsTheMeasuredDefault(t *testing.T) {
	t.Setenv(EnvBackend, "")
	os.Unsetenv(EnvBackend)
	b, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	if info.Name != DefaultBackend || info.Requested != "" {
		t.Fatalf("info = %+v, want %s", info, DefaultBackend)
	}
	if line := info.String(); !strings.Contains(line, "GOMLX_BACKEND unset: "+DefaultReason) {
		t.Fatalf("line %q does not say why %s is the default", line, DefaultBackend)
	}
}

// TestRequestedButUnavailableIsAnError: a backend that was asked for and
// cannot be created is an error in one line, never a quiet fallback.
func TestRequestedButUnavailableIsAnError(t *testing.T) {
	t.Setenv(EnvBackend, "nosuchbackend:x")
	_, _, err := New()
	if err == nil || !strings.Contains(err.Error(), "GOMLX_BACKEND=nosuchbackend:x") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line naming GOMLX_BACKEND=nosuchbackend:x", err)
	}
}

func TestPluginNameOf(t *testing.T) {
	for path, want := range map[string]string{
		"/a/build/xla/pjrt_c_api_cpu_plugin.so":          "cpu",
		"/x/pjrt_c_api_cuda_v0.83_plugin.so":             "cuda_v0.83",
		"/x/xla_cpu_pjrt.so":                             "xla_cpu_pjrt.so",
		"/x/pjrt_c_api_plugin.so":                        "pjrt_c_api_plugin.so",
		"/usr/local/lib/go-xla/pjrt_c_api_cpu_plugin.so": "cpu",
	} {
		if got := pluginNameOf(path); got != want {
			t.Errorf("pluginNameOf(%q) = %q, want %q", path, got, want)
		}
	}
}

// The backend line names the kernels that run, and says when none does.
func TestKernelsInLine(t *testing.T) {
	t.Setenv(EnvBackend, "go")
	defer gokernels.SetAll(false)()
	_, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Kernels) != 0 || !strings.Contains(info.String(), "lwgcn kernels off,") {
		t.Errorf("all kernels off: info %+v, line %q", info.Kernels, info)
	}
	restore := gokernels.Kernels[0].Set(true)
	defer restore()
	if _, info, err = New(); err != nil || !strings.Contains(info.String(), "lwgcn kernels: "+gokernels.Kernels[0].Name+",") {
		t.Errorf("one kernel on: line %q (%v)", info, err)
	}
}

// kernelsPhrase is what the line says of lwgcn's kernels as they are now.
func kernelsPhrase() string {
	if a := gokernels.Active(); len(a) > 0 {
		return "lwgcn kernels: " + strings.Join(a, "+")
	}
	return "lwgcn kernels off"
}
