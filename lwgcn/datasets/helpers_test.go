package datasets_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sharedDir locates ../shared/datasets next to the repository root (override
// with LWGCN_SHARED, the directory that holds datasets/), or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("LWGCN_SHARED")
	if d == "" {
		d = "../../../shared" // lwgcn/datasets -> repo root -> ../shared
	}
	d = filepath.Join(d, "datasets")
	if _, err := os.Stat(filepath.Join(d, "MANIFEST.tsv")); err != nil {
		t.Skipf("shared datasets not found at %s (set LWGCN_SHARED to the directory holding datasets/): %v", d, err)
	}
	return d
}

// manifestRow is one line of MANIFEST.tsv, read independently of the
// generated table.
type manifestRow struct {
	size   int64
	sha    string
	commit string
}

func readManifest(t testing.TB) map[string]manifestRow {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedDir(t), "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]manifestRow{}
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		n, _ := strconv.ParseInt(c[2], 10, 64)
		out[c[1]] = manifestRow{size: n, sha: c[3], commit: c[6]}
	}
	return out
}

// serveDir starts a real HTTP server for a directory (the mirror layout).
func serveDir(t testing.TB, dir string) *httptest.Server {
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// copyFiles copies shared files (cache paths) into a new mirror directory.
func copyFiles(t testing.TB, from string, paths ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(from, p))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, p), b)
	}
	return dir
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// leftovers lists files under dir whose names mark partial downloads.
func leftovers(t testing.TB, dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.Contains(info.Name(), ".part-") || strings.Contains(info.Name(), ".tmp-")) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
