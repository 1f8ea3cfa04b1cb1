package buildinfo

import (
	"os"
	"strings"
	"testing"
)

// The Makefile and CI build with GOEXPERIMENT=simd; the constant must agree
// with the environment the test binary was built under.
func TestSIMDMatchesBuildEnvironment(t *testing.T) {
	want := strings.Contains(os.Getenv("GOEXPERIMENT"), "simd")
	if SIMD != want {
		t.Errorf("SIMD = %v but GOEXPERIMENT=%q", SIMD, os.Getenv("GOEXPERIMENT"))
	}
	if !strings.Contains(SIMDStatus(), map[bool]string{true: "on", false: "off"}[SIMD]) {
		t.Errorf("SIMDStatus %q disagrees with SIMD=%v", SIMDStatus(), SIMD)
	}
}

func TestInfo(t *testing.T) {
	i := Get()
	if i.NumCPU < 1 || i.GoVersion == "" || i.Machine == "" {
		t.Errorf("incomplete info %+v", i)
	}
	if SourceDir() == "" {
		t.Errorf("SourceDir not found from the package directory")
	}
}
