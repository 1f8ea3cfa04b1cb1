package buildinfo

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// SIMDWarning is printed by commands when SIMD is off.
const SIMDWarning = "warning: built without GOEXPERIMENT=simd: GoMLX's pure-Go backend runs without SIMD kernels (~35x slower matrix products); rebuild with GOEXPERIMENT=simd (make sets it)"

// SIMDStatus is a one-line description, e.g. "SIMD: on (GOEXPERIMENT=simd),
// AVX2 kernels (this CPU has no AVX-512)".
func SIMDStatus() string {
	if !SIMD {
		return "SIMD: off (built without GOEXPERIMENT=simd)"
	}
	s := "SIMD: on (GOEXPERIMENT=simd)"
	if v, why := vectorKernels(); v != "" {
		s += ", " + vectorPhrase(v)
		if why != "" {
			s += " (" + why + ")"
		}
	}
	return s
}

// Vector kernels of GoMLX's pure-Go backend (compute's gobackend uses the
// widest the CPU has unless its environment variables switch them off).
const (
	VectorAVX512 = "AVX-512"
	VectorAVX2   = "AVX2"
	VectorNone   = "none"
)

// vectorChoice is the vector kernels the Go backend uses for the CPU's
// features (hasAVX2, hasAVX512) and its switches (getenv: compute's
// GOMLX_GO_SIMD_AVX512 and GOMLX_GO_SIMD_AVX2, on unless set to one of the
// false values of compute's support/envutil), and why it uses less than
// AVX-512 ("" when it uses AVX-512).
func vectorChoice(hasAVX2, hasAVX512 bool, getenv func(string) string) (vector, why string) {
	off := func(name string) bool {
		switch strings.ToLower(getenv(name)) {
		case "0", "false", "f", "no", "off", "disabled":
			return true
		}
		return false
	}
	switch {
	case hasAVX512 && !off(envAVX512):
		return VectorAVX512, ""
	case hasAVX512:
		why = envAVX512 + " switches AVX-512 off"
	default:
		why = "this CPU has no AVX-512"
	}
	if hasAVX2 && !off(envAVX2) {
		return VectorAVX2, why
	}
	if hasAVX2 {
		return VectorNone, envAVX2 + " switches AVX2 off"
	}
	return VectorNone, "this CPU has no AVX2"
}

// vectorPhrase names the kernels: "AVX2 kernels", "no vector kernels".
func vectorPhrase(v string) string {
	if v == VectorNone {
		return "no vector kernels"
	}
	return v + " kernels"
}

// compute's switches for the Go backend's vector kernels.
const (
	envAVX512 = "GOMLX_GO_SIMD_AVX512"
	envAVX2   = "GOMLX_GO_SIMD_AVX2"
)

// Info is the provenance recorded with results.
type Info struct {
	GoVersion string `json:"go_version"`
	SIMD      bool   `json:"simd"`
	Commit    string `json:"commit"`
	Dirty     bool   `json:"dirty"`
	// Machine is the CPU's model name, with its family and model numbers on
	// x86 ("AMD EPYC (family 25 model 1)": virtual machines often report
	// only a brand, and the numbers tell CPU generations apart).
	Machine string `json:"machine"`
	// Vector is the vector kernels the Go backend uses (VectorAVX512,
	// VectorAVX2, VectorNone; "" without SIMD or off x86).
	Vector string `json:"vector,omitempty"`
	NumCPU int    `json:"num_cpu"`
	OS     string `json:"os"`
}

var (
	infoOnce sync.Once
	info     Info
)

// Get returns the provenance (computed once per process).
func Get() Info {
	infoOnce.Do(func() {
		info = Info{GoVersion: runtime.Version(), SIMD: SIMD, NumCPU: runtime.NumCPU(),
			OS: runtime.GOOS + "/" + runtime.GOARCH, Machine: cpuModel()}
		info.Vector, _ = vectorKernels()
		info.Commit, info.Dirty = commit()
	})
	return info
}

// String is a compact one-line form.
func (i Info) String() string {
	c := i.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if i.Dirty {
		c += "+dirty"
	}
	simd := "off"
	if i.SIMD {
		simd = "on"
		if i.Vector != "" {
			simd += " (" + vectorPhrase(i.Vector) + ")"
		}
	}
	return fmt.Sprintf("commit %s, %s, SIMD %s, %s, %d CPUs", c, i.GoVersion, simd, i.Machine, i.NumCPU)
}

// Link-time stamps of the commit and of uncommitted changes ("true" or
// "false"), set by the Makefile's build (builds use -buildvcs=false, so a
// binary run outside the repository could not tell its commit otherwise):
//
//	go build -ldflags "-X github.com/lwgcn/toolkit/lwgcn/buildinfo.commitStamp=$(git rev-parse HEAD)
//	  -X github.com/lwgcn/toolkit/lwgcn/buildinfo.dirtyStamp=false" ./cmd/lwgcn
var commitStamp, dirtyStamp string

// commit returns the commit and whether the tree had uncommitted changes:
// the link-time stamp, else Go's VCS stamp, else git asked in the source
// tree (`go test`/`go run` stamp nothing), else "unknown".
func commit() (string, bool) {
	return resolveCommit(commitStamp, dirtyStamp, vcsCommit, gitCommit)
}

// commitSource is one way of finding the commit; ok false when it has none.
type commitSource func() (rev string, dirty, ok bool)

// resolveCommit applies commit's order of preference.
func resolveCommit(stamp, stampDirty string, sources ...commitSource) (string, bool) {
	if stamp = strings.TrimSpace(stamp); stamp != "" {
		return stamp, strings.TrimSpace(stampDirty) == "true"
	}
	for _, src := range sources {
		if rev, dirty, ok := src(); ok {
			return rev, dirty
		}
	}
	return "unknown", false
}

// vcsCommit reads the VCS settings Go stamps into the binary (absent with
// -buildvcs=false).
func vcsCommit() (string, bool, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false, false
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	return rev, dirty, rev != ""
}

// gitCommit asks git in the repository containing the current directory.
func gitCommit() (string, bool, bool) {
	dir := SourceDir()
	if dir == "" {
		return "", false, false
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", false, false
	}
	status, _ := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	return strings.TrimSpace(string(out)), len(strings.TrimSpace(string(status))) > 0, true
}

// SourceDir returns the repository root when the current directory is inside
// it (a directory with go.mod declaring this module), else "".
func SourceDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module github.com/lwgcn/toolkit\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	if m := machineName(string(data)); m != "" {
		return m
	}
	return runtime.GOARCH
}

// machineName reads the first processor's model name from /proc/cpuinfo
// text, with "(family F model M)" when the text has them (x86); "" when it
// has no model name.
func machineName(cpuinfo string) string {
	var name, family, model string
	s := bufio.NewScanner(strings.NewReader(cpuinfo))
	for s.Scan() {
		line := s.Text()
		if strings.TrimSpace(line) == "" && name != "" {
			break // the end of the first processor
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.Join(strings.Fields(v), " ")
		switch strings.TrimSpace(k) {
		case "model name":
			name = v
		case "cpu family":
			family = v
		case "model":
			model = v
		}
	}
	if name == "" {
		return ""
	}
	if family != "" && model != "" {
		name += fmt.Sprintf(" (family %s model %s)", family, model)
	}
	return name
}
