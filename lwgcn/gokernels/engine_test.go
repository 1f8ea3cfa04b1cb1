package gokernels_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"
)

// vendored are the patched modules of third_party: folder, module path
// and version.
var vendored = []struct{ dir, path, version string }{
	{"compute", "github.com/gomlx/compute", "v0.1.14"},
	{"go-xla", "github.com/gomlx/go-xla", "v0.4.13"},
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// moduleSumHash returns the h1 hash of module mod at version in a go.sum
// file.
func moduleSumHash(t *testing.T, path, mod, version string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if c := strings.Fields(sc.Text()); len(c) == 3 && c[0] == mod && c[1] == version {
			return c[2]
		}
	}
	t.Fatalf("%s has no line for %s %s", path, mod, version)
	return ""
}

// TestEngineIsPristinePlusPatches takes the patches of
// third_party/patches/<module> back out of third_party/<module> (in reverse
// order), for compute and go-xla, and checks the tree left is the module as
// published: its hash is the one go.sum held before the replace (kept in
// third_party/patches/<module>/go.sum) and the one gomlx's own go.sum pins.
func TestEngineIsPristinePlusPatches(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed to take the patches out")
	}
	root := repoRoot(t)
	// gomlx's go.sum, in the module cache (verified by our go.sum's hash of
	// gomlx), pins the same hashes.
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/gomlx/gomlx").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/gomlx/gomlx: %v", err)
	}
	gomlxSum := filepath.Join(strings.TrimSpace(string(out)), "go.sum")
	for _, v := range vendored {
		t.Run(v.dir, func(t *testing.T) {
			src := filepath.Join(root, "third_party", v.dir)
			tmp := filepath.Join(t.TempDir(), v.dir)
			if err := os.CopyFS(tmp, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			patches, err := filepath.Glob(filepath.Join(root, "third_party", "patches", v.dir, "*.patch"))
			if err != nil || len(patches) == 0 {
				t.Fatalf("no patches in third_party/patches/%s (%v)", v.dir, err)
			}
			slices.Sort(patches)
			for i := len(patches) - 1; i >= 0; i-- {
				cmd := exec.Command("git", "apply", "-R", "--whitespace=nowarn", patches[i])
				cmd.Dir = tmp
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("taking %s out of third_party/%s: %v\n%s", filepath.Base(patches[i]), v.dir, err, out)
				}
			}
			module := v.path + "@" + v.version
			got, err := dirhash.HashDir(tmp, module, dirhash.Hash1)
			if err != nil {
				t.Fatal(err)
			}
			recorded := moduleSumHash(t, filepath.Join(root, "third_party", "patches", v.dir, "go.sum"), v.path, v.version)
			if got != recorded {
				t.Errorf("third_party/%s without its patches hashes to %s; go.sum had %s for %s", v.dir, got, recorded, module)
			}
			if pinned := moduleSumHash(t, gomlxSum, v.path, v.version); pinned != recorded {
				t.Errorf("gomlx's go.sum pins %s for %s, third_party/patches/%s/go.sum %s", pinned, module, v.dir, recorded)
			}
		})
	}
}
