package backend

import (
	"os"
	"strings"
	"testing"
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
	if info.Name != "go" || info.Fallback || info.Requested != "go" || !info.IsGo() {
		t.Fatalf("info = %+v, want the go backend as requested", info)
	}
	// GOMLX_FUSION was unset: lwgcn's default is set in the environment and
	// reported as such.
	if got := os.Getenv(EnvFusion); (got == "1") != DefaultFusion || info.Fusion != DefaultFusion || info.FusionSet {
		t.Fatalf("GOMLX_FUSION=%q, info fusion %v (set %v), want default %v", got, info.Fusion, info.FusionSet, DefaultFusion)
	}
	line := info.String()
	for _, want := range []string{"backend: go (pure Go, SIMD ", "fusion " + onOff(DefaultFusion) + ": lwgcn default",
		"GOMLX_BACKEND=go"} {
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

func TestUnknownBackendFallsBackLoudly(t *testing.T) {
	t.Setenv(EnvBackend, "nosuchbackend:x")
	_, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "go" || !info.Fallback || !strings.Contains(info.Reason, `backend "nosuchbackend:x" unavailable`) {
		t.Fatalf("info = %+v", info)
	}
	if !strings.Contains(info.String(), "GOMLX_BACKEND=nosuchbackend:x; backend \"nosuchbackend:x\" unavailable") {
		t.Fatalf("line %q does not say why", info)
	}
}

// TestXLAOrFallback: with GOMLX_BACKEND unset or "xla:cpu", the result is
// XLA where it can be had, else the Go backend with the reason; the wait is
// bounded by LWGCN_XLA_TIMEOUT.
func TestXLAOrFallback(t *testing.T) {
	for _, req := range []string{"", "xla:cpu"} {
		if req == "" {
			t.Setenv(EnvBackend, "")
			os.Unsetenv(EnvBackend)
		} else {
			t.Setenv(EnvBackend, req)
		}
		t.Setenv(EnvXLATimeout, "20s")
		b, info, err := New()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(info.Name, "xla"):
			if info.Fallback {
				t.Fatalf("xla with fallback flag: %+v", info)
			}
		case info.Name == "go":
			if !info.Fallback || !strings.HasPrefix(info.Reason, "XLA unavailable: ") {
				t.Fatalf("go without the XLA reason: %+v", info)
			}
			if !xlaCompiledIn && !strings.Contains(info.Reason, "not compiled in") {
				t.Fatalf("reason %q should say XLA is not compiled in", info.Reason)
			}
		default:
			t.Fatalf("unexpected backend %+v", info)
		}
		if req == "" && !strings.Contains(info.String(), "GOMLX_BACKEND unset") {
			t.Fatalf("line %q", info)
		}
		b.Finalize()
	}
}

func TestXLATimeoutIsBounded(t *testing.T) {
	if !xlaCompiledIn {
		t.Skip("XLA not compiled in")
	}
	t.Setenv(EnvBackend, "xla:cpu")
	t.Setenv(EnvXLATimeout, "1ns")
	_, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// Either the plugin answered (installed) within 1ns of scheduling, or we
	// fell back saying why; never a hang.
	if info.Name == "go" && !strings.HasPrefix(info.Reason, "XLA unavailable: ") {
		t.Fatalf("info = %+v", info)
	}
	t.Setenv(EnvXLATimeout, "soon")
	_, info, _ = New()
	if info.Name == "go" && !strings.Contains(info.Reason, EnvXLATimeout) {
		t.Fatalf("bad timeout value not reported: %+v", info)
	}
}
