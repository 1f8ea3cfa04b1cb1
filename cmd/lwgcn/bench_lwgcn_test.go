package main

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
)

// authorsHostNote speaks only for the Go backend on a host without AVX-512
// kernels, and names the kernels it runs.
func TestAuthorsHostNote(t *testing.T) {
	for _, c := range []struct {
		isGo   bool
		vector string
		want   string // "" for no note, else a substring
	}{
		{true, buildinfo.VectorAVX512, ""},
		{true, "", ""},
		{false, buildinfo.VectorAVX2, ""},
		{true, buildinfo.VectorAVX2, "AVX2 kernels, not AVX-512"},
		{true, buildinfo.VectorNone, "scalar code, not AVX-512"},
	} {
		got := authorsHostNote(c.isGo, c.vector)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("authorsHostNote(%v, %q) = %q, want %q", c.isGo, c.vector, got, c.want)
		}
	}
}
