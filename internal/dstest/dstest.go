// Package dstest gives tests the real datasets of ../shared/datasets through
// the project's download path: a local HTTP server over the shared directory
// is the mirror, and files are downloaded (checksum-verified) into a cache
// shared by test runs. Tests skip when ../shared is absent. TooLarge checks
// the loaders' errors for inputs that ask for more memory than there is.
package dstest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

var (
	serverOnce sync.Once
	serverURL  string
	loadMu     sync.Mutex
	loaded     = map[string]*graph.Graph{}
)

// SharedDir returns the directory holding the shared datasets (MANIFEST.tsv):
// $LWGCN_SHARED/datasets, else ../shared/datasets beside the repository root.
// It skips the test when there is none.
func SharedDir(t testing.TB) string {
	t.Helper()
	root := os.Getenv("LWGCN_SHARED")
	if root == "" {
		src := buildinfo.SourceDir()
		if src == "" {
			t.Skip("not inside the lwgcn repository and LWGCN_SHARED unset: no shared datasets")
		}
		root = filepath.Join(filepath.Dir(src), "shared")
	}
	dir := filepath.Join(root, "datasets")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Skipf("shared datasets not found at %s (set LWGCN_SHARED to the directory holding datasets/)", dir)
	}
	return dir
}

// MirrorURL starts (once per test binary) an HTTP server over SharedDir and
// returns its base URL.
func MirrorURL(t testing.TB) string {
	t.Helper()
	dir := SharedDir(t)
	serverOnce.Do(func() {
		srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
		serverURL = srv.URL // lives until the test binary exits
	})
	return serverURL
}

// CacheDir is the download cache shared by test runs; every load re-verifies
// the checksums, so a stale or corrupted file fails the test.
func CacheDir() string {
	return filepath.Join(os.TempDir(), "lwgcn-test-cache")
}

// Options returns the datasets options that route downloads through the
// local HTTP mirror into the test cache, silently.
func Options(t testing.TB) []datasets.Option {
	return []datasets.Option{datasets.WithMirror(MirrorURL(t)), datasets.WithCacheDir(CacheDir()), datasets.Silent()}
}

// Load returns a dataset (memoised per test binary; graphs are immutable).
func Load(t testing.TB, name string) *graph.Graph {
	t.Helper()
	opts := Options(t)
	loadMu.Lock()
	defer loadMu.Unlock()
	if g, ok := loaded[name]; ok {
		return g
	}
	g, err := datasets.Load(context.Background(), name, opts...)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	loaded[name] = g
	return g
}

// TooLarge fails the test unless err is a one-line ErrTooLarge naming every
// string of want.
func TooLarge(t testing.TB, name string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: loaded without error", name)
		return
	}
	msg := err.Error()
	ok := errors.Is(err, limits.ErrTooLarge) && !strings.Contains(msg, "\n")
	for _, w := range want {
		ok = ok && strings.Contains(msg, w)
	}
	if !ok {
		t.Errorf("%s: %v; want a one-line ErrTooLarge naming %q", name, err, want)
	}
}
