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

// pristineModule is the module third_party/compute replaces.
const pristineModule = "github.com/gomlx/compute@v0.1.14"

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// goSumHash returns the h1 hash of "github.com/gomlx/compute v0.1.14" in a
// go.sum file.
func goSumHash(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if c := strings.Fields(sc.Text()); len(c) == 3 && c[0] == "github.com/gomlx/compute" && c[1] == "v0.1.14" {
			return c[2]
		}
	}
	t.Fatalf("%s has no line for github.com/gomlx/compute v0.1.14", path)
	return ""
}

// TestEngineIsPristinePlusPatches takes the patches of
// third_party/patches/compute back out of third_party/compute (in reverse
// order) and checks the tree left is compute v0.1.14 as published: its hash
// is the one go.sum held before the replace (kept in
// third_party/patches/compute/go.sum) and the one gomlx's own go.sum pins.
func TestEngineIsPristinePlusPatches(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed to take the patches out")
	}
	root := repoRoot(t)
	src := filepath.Join(root, "third_party", "compute")
	tmp := filepath.Join(t.TempDir(), "compute")
	if err := os.CopyFS(tmp, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	patches, err := filepath.Glob(filepath.Join(root, "third_party", "patches", "compute", "*.patch"))
	if err != nil || len(patches) == 0 {
		t.Fatalf("no patches in third_party/patches/compute (%v)", err)
	}
	slices.Sort(patches)
	for i := len(patches) - 1; i >= 0; i-- {
		cmd := exec.Command("git", "apply", "-R", "--whitespace=nowarn", patches[i])
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("taking %s out of third_party/compute: %v\n%s", filepath.Base(patches[i]), err, out)
		}
	}
	got, err := dirhash.HashDir(tmp, pristineModule, dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	recorded := goSumHash(t, filepath.Join(root, "third_party", "patches", "compute", "go.sum"))
	if got != recorded {
		t.Errorf("third_party/compute without its patches hashes to %s; go.sum had %s for %s", got, recorded, pristineModule)
	}
	// gomlx's go.sum, in the module cache (verified by our go.sum's hash of
	// gomlx), pins the same hash.
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/gomlx/gomlx").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/gomlx/gomlx: %v", err)
	}
	if pinned := goSumHash(t, filepath.Join(strings.TrimSpace(string(out)), "go.sum")); pinned != recorded {
		t.Errorf("gomlx's go.sum pins %s for %s, third_party/patches/compute/go.sum %s", pinned, pristineModule, recorded)
	}
}
