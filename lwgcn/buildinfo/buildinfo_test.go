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

// machineName on /proc/cpuinfo texts: the model name with the family and
// model numbers when present (they tell Zen 3 from Zen 4 where the model
// name is only "AMD EPYC"), the first processor's only.
func TestMachineName(t *testing.T) {
	zen3 := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n" +
		"model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu avx avx2\n\n" +
		"processor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: Other CPU\n"
	arm := "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"
	for _, c := range []struct{ text, want string }{
		{zen3, "AMD EPYC (family 25 model 1)"},
		{"model name\t: Intel(R)   Xeon(R) Processor\ncpu family\t: 6\nmodel\t\t: 143\n", "Intel(R) Xeon(R) Processor (family 6 model 143)"},
		{"model name\t: Some CPU\n", "Some CPU"},
		{arm, ""},
	} {
		if got := machineName(c.text); got != c.want {
			t.Errorf("machineName(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// vectorChoice follows compute's rules: the widest kernels the CPU has,
// unless GOMLX_GO_SIMD_AVX512 / GOMLX_GO_SIMD_AVX2 is a false value.
func TestVectorChoice(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		avx2, avx512 bool
		env          func(string) string
		want, why    string
	}{
		{true, true, env(), VectorAVX512, ""},
		{true, true, env(envAVX512, "true"), VectorAVX512, ""},
		{true, false, env(), VectorAVX2, "this CPU has no AVX-512"},
		{true, true, env(envAVX512, "False"), VectorAVX2, envAVX512 + " switches AVX-512 off"},
		{true, true, env(envAVX512, "0", envAVX2, "off"), VectorNone, envAVX2 + " switches AVX2 off"},
		{false, false, env(), VectorNone, "this CPU has no AVX2"},
	} {
		got, why := vectorChoice(c.avx2, c.avx512, c.env)
		if got != c.want || why != c.why {
			t.Errorf("vectorChoice(avx2 %v, avx512 %v): %q (%q), want %q (%q)", c.avx2, c.avx512, got, why, c.want, c.why)
		}
	}
}
