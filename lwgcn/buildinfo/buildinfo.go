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

// SIMDStatus is a one-line description, e.g. "SIMD: on (GOEXPERIMENT=simd)".
func SIMDStatus() string {
	if SIMD {
		return "SIMD: on (GOEXPERIMENT=simd)"
	}
	return "SIMD: off (built without GOEXPERIMENT=simd)"
}

// Info is the provenance recorded with results.
type Info struct {
	GoVersion string `json:"go_version"`
	SIMD      bool   `json:"simd"`
	Commit    string `json:"commit"`
	Dirty     bool   `json:"dirty"`
	Machine   string `json:"machine"`
	NumCPU    int    `json:"num_cpu"`
	OS        string `json:"os"`
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
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return runtime.GOARCH
}
