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

// TestResolveCommitOrder: the link-time stamp wins (its dirty flag taken
// as given), then the first source that knows the commit, in order; with
// none, "unknown".
func TestResolveCommitOrder(t *testing.T) {
	var asked []string
	src := func(name, rev string, dirty bool) commitSource {
		return func() (string, bool, bool) {
			asked = append(asked, name)
			return rev, dirty, rev != ""
		}
	}
	vcs, git, none := src("vcs", "aaa", true), src("git", "bbb", false), src("none", "", true)
	cases := []struct {
		stamp, stampDirty string
		sources           []commitSource
		rev               string
		dirty             bool
		asked             string
	}{
		{"c0ffee", "true", []commitSource{vcs, git}, "c0ffee", true, ""},
		{" c0ffee\n", "false", []commitSource{vcs, git}, "c0ffee", false, ""},
		{"c0ffee", "", nil, "c0ffee", false, ""},
		{"", "true", []commitSource{vcs, git}, "aaa", true, "vcs"},
		{"", "", []commitSource{none, git}, "bbb", false, "none git"},
		{"", "", []commitSource{none, none}, "unknown", false, "none none"},
	}
	for _, c := range cases {
		asked = nil
		rev, dirty := resolveCommit(c.stamp, c.stampDirty, c.sources...)
		if rev != c.rev || dirty != c.dirty || strings.Join(asked, " ") != c.asked {
			t.Errorf("stamp %q/%q: got %q dirty %v (asked %v), want %q dirty %v (asked %q)",
				c.stamp, c.stampDirty, rev, dirty, asked, c.rev, c.dirty, c.asked)
		}
	}
	// `go test` stamps nothing and runs in the repository: git answers.
	if commitStamp != "" {
		t.Fatalf("test binary has a link-time stamp %q", commitStamp)
	}
	if rev, _, ok := gitCommit(); ok {
		if got, _ := commit(); got != rev {
			t.Errorf("commit() = %q, git says %q", got, rev)
		}
	}
}
