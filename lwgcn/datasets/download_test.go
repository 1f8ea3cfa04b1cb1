package datasets_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
)

var texasFiles = func() []string {
	out := []string{"geom-gcn/new_data/texas/out1_node_feature_label.txt", "geom-gcn/new_data/texas/out1_graph_edges.txt"}
	for i := 0; i < 10; i++ {
		out = append(out, "geom-gcn/splits/texas_split_0.6_0.2_"+strconv.Itoa(i)+".npz")
	}
	return out
}()

const texasEdges = "geom-gcn/new_data/texas/out1_graph_edges.txt"

func TestCorruptedMirrorFileFailsWithChecksumError(t *testing.T) {
	shared := sharedDir(t)
	man := readManifest(t)
	for _, mode := range []string{"same size", "truncated"} {
		mirror := copyFiles(t, shared, texasFiles...)
		b, _ := os.ReadFile(filepath.Join(mirror, texasEdges))
		if mode == "same size" {
			b[len(b)/2] ^= 0x01
		} else {
			b = b[:len(b)-10]
		}
		writeFile(t, filepath.Join(mirror, texasEdges), b)
		for _, via := range []string{"http", "directory"} {
			m := mirror
			if via == "http" {
				m = serveDir(t, mirror).URL
			}
			cache := t.TempDir()
			_, err := datasets.Load(context.Background(), "texas", datasets.WithMirror(m), datasets.WithCacheDir(cache),
				datasets.Silent())
			var ce *datasets.ChecksumError
			if !errors.As(err, &ce) {
				t.Fatalf("%s via %s: err = %v, want a ChecksumError", mode, via, err)
			}
			want := man[texasEdges].sha
			if ce.File != texasEdges || ce.Expected != want || !strings.Contains(err.Error(), texasEdges) ||
				!strings.Contains(err.Error(), want) {
				t.Errorf("%s via %s: %v", mode, via, err)
			}
			// The actual hash is reported when the size matched (HTTP checks
			// Content-Length before reading a truncated body).
			if mode == "same size" && (ce.Actual != sha256Hex(b) || !strings.Contains(err.Error(), sha256Hex(b))) {
				t.Errorf("%s via %s: actual %s, want %s", mode, via, ce.Actual, sha256Hex(b))
			}
			if mode == "truncated" && (ce.ActualSize != int64(len(b)) || !strings.Contains(err.Error(), "size 2162 bytes, expected 2172")) {
				t.Errorf("%s via %s: %v", mode, via, err)
			}
			if exists(filepath.Join(cache, texasEdges)) {
				t.Errorf("%s via %s: the bad file was left in the cache", mode, via)
			}
			if l := leftovers(t, cache); len(l) > 0 {
				t.Errorf("%s via %s: temporary files left: %v", mode, via, l)
			}
		}
	}
}

func TestCorruptedCachedFileIsReported(t *testing.T) {
	shared := sharedDir(t)
	cache := copyFiles(t, shared, texasFiles...) // a cache is laid out like a mirror
	p := filepath.Join(cache, texasEdges)
	b, _ := os.ReadFile(p)
	b[0] = 'X'
	writeFile(t, p, b)
	_, err := datasets.Load(context.Background(), "texas", datasets.WithCacheDir(cache), datasets.Offline(),
		datasets.Silent())
	var ce *datasets.ChecksumError
	if !errors.As(err, &ce) || ce.Actual != sha256Hex(b) || !strings.Contains(err.Error(), "delete the cached file") {
		t.Errorf("err = %v", err)
	}
}

// An interrupted download (the server closes the connection mid-body) leaves
// neither a final file nor a temporary one.
func TestInterruptedDownloadLeavesNoFile(t *testing.T) {
	shared := sharedDir(t)
	body, err := os.ReadFile(filepath.Join(shared, texasEdges))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // closes the connection mid-body
	}))
	defer srv.Close()
	cache := t.TempDir()
	f := fileByPath(t, "texas", texasEdges)
	_, err = datasets.Fetch(context.Background(), f, datasets.WithMirror(srv.URL), datasets.WithCacheDir(cache),
		datasets.Silent())
	if err == nil || !strings.Contains(err.Error(), "downloading "+texasEdges) {
		t.Fatalf("err = %v", err)
	}
	if exists(filepath.Join(cache, texasEdges)) {
		t.Error("a partial download was left as the final file")
	}
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

// A server that stops sending is abandoned after the stall timeout, and a
// cancelled context stops a download too.
func TestStalledDownloadTimesOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2172")
		w.Write([]byte("node_id\tnode_id\n"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	f := fileByPath(t, "texas", texasEdges)
	cache := t.TempDir()
	start := time.Now()
	_, err := datasets.Fetch(context.Background(), f, datasets.WithMirror(srv.URL), datasets.WithCacheDir(cache),
		datasets.WithStallTimeout(200*time.Millisecond), datasets.Silent())
	if err == nil || !strings.Contains(err.Error(), "no data received for 200ms") {
		t.Errorf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("stall detection took %v", time.Since(start))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = datasets.Fetch(ctx, f, datasets.WithMirror(srv.URL), datasets.WithCacheDir(cache), datasets.Silent())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled context: err = %v", err)
	}
	if l := leftovers(t, cache); len(l) > 0 || exists(filepath.Join(cache, texasEdges)) {
		t.Errorf("files left: %v", l)
	}
}

func TestHTTPErrorStatusNamesURL(t *testing.T) {
	srv := serveDir(t, t.TempDir())
	f := fileByPath(t, "texas", texasEdges)
	_, err := datasets.Fetch(context.Background(), f, datasets.WithMirror(srv.URL+"/"), datasets.WithCacheDir(t.TempDir()),
		datasets.Silent())
	if err == nil || !strings.Contains(err.Error(), srv.URL+"/"+texasEdges+": 404 Not Found") {
		t.Errorf("err = %v", err)
	}
}

func TestOfflineRefusesDownloads(t *testing.T) {
	_, err := datasets.Load(context.Background(), "texas", datasets.WithMirror(""), datasets.WithCacheDir(t.TempDir()),
		datasets.Offline(), datasets.Silent())
	if !errors.Is(err, datasets.ErrNotCached) {
		t.Errorf("err = %v", err)
	}
}

func fileByPath(t *testing.T, name, cachePath string) datasets.File {
	d, _ := datasets.Lookup(name)
	for _, f := range append(d.Files, d.Optional...) {
		if f.CachePath() == cachePath {
			return f
		}
	}
	t.Fatalf("no file %s in %s", cachePath, name)
	return datasets.File{}
}

// crocodileNPZ builds a small PyG WikipediaNetwork-style npz.
func crocodileNPZ(target []int64) []byte {
	n := len(target)
	feats := make([]float32, 3*n)
	for i := range feats {
		feats[i] = float32(i % 2)
	}
	return fx.NPZ(true,
		fx.Member{Name: "features", Data: fx.NPY("<f4", []int{n, 3}, false, fx.Float32s(feats))},
		fx.Member{Name: "edges", Data: fx.NPY("<i8", []int{2, 2}, false, fx.Int64s([]int64{0, 1, 1, 0}))},
		fx.Member{Name: "target", Data: fx.NPY("<i8", []int{n}, false, fx.Int64s(target))})
}

// An unpinned file is trusted on first download from its canonical host:
// its SHA-256 is recorded in a sidecar, announced in one line, and later
// copies must match it.
func TestTrustOnFirstUse(t *testing.T) {
	const path = "graphmining.ai/datasets/ptg/wiki/crocodile.npz"
	mirror := t.TempDir()
	first := crocodileNPZ([]int64{0, 4, 2})
	writeFile(t, filepath.Join(mirror, path), first)
	// The canonical host (trust on first use applies to it, not to mirrors).
	srv := serveDir(t, filepath.Join(mirror, "graphmining.ai"))
	cache := t.TempDir()
	var log bytes.Buffer
	opts := []datasets.Option{datasets.WithMirror(""), datasets.WithHTTPClient(canonicalHost(srv)), datasets.WithCacheDir(cache),
		datasets.WithProgress(nil), datasets.WithLog(&log)}
	g, err := datasets.Load(context.Background(), "crocodile", opts...)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 3 || g.NumEdges() != 2 || !slices.Equal(g.Labels(), []int32{0, 4, 2}) || g.NumClasses() != 5 {
		t.Errorf("crocodile: %v labels %v", g, g.Labels())
	}
	side, err := os.ReadFile(filepath.Join(cache, path+".sha256"))
	if err != nil || string(side) != sha256Hex(first)+"  crocodile.npz\n" {
		t.Errorf("sidecar %q (%v), want the sum of the served file", side, err)
	}
	if lines := strings.Count(log.String(), "\n"); lines != 1 || !strings.Contains(log.String(), "trust on first use") ||
		!strings.Contains(log.String(), sha256Hex(first)) {
		t.Errorf("notice %q", log.String())
	}
	// A changed cached copy is caught.
	other := crocodileNPZ([]int64{1, 1, 1})
	writeFile(t, filepath.Join(cache, path), other)
	_, err = datasets.Load(context.Background(), "crocodile", opts...)
	var ce *datasets.ChecksumError
	if !errors.As(err, &ce) || ce.Expected != sha256Hex(first) || ce.Actual != sha256Hex(other) {
		t.Errorf("changed cached file: %v", err)
	}
	// So is a re-download that differs from the record; nothing is kept.
	os.Remove(filepath.Join(cache, path))
	writeFile(t, filepath.Join(mirror, path), other)
	_, err = datasets.Load(context.Background(), "crocodile", opts...)
	if !errors.As(err, &ce) || ce.Expected != sha256Hex(first) || exists(filepath.Join(cache, path)) {
		t.Errorf("changed download: %v", err)
	}
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestCacheDirRule(t *testing.T) {
	t.Setenv(datasets.EnvData, "")
	root, _ := filepath.Abs("../..") // lwgcn/datasets -> repository root
	if got, err := datasets.CacheDir(); err != nil || got != filepath.Join(root, "data", "cache") {
		t.Errorf("inside the repo: %q, %v; want %s/data/cache", got, err, root)
	}
	env := t.TempDir()
	t.Setenv(datasets.EnvData, env)
	if got, _ := datasets.CacheDir(); got != env {
		t.Errorf("LWGCN_DATA: %q, want %q", got, env)
	}
	opt := t.TempDir()
	if got, _ := datasets.CacheDir(datasets.WithCacheDir(opt)); got != opt {
		t.Errorf("WithCacheDir: %q, want %q", got, opt)
	}
	if runtime.GOOS != "linux" {
		return
	}
	t.Setenv(datasets.EnvData, "")
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg)
	t.Chdir(t.TempDir())
	if got, _ := datasets.CacheDir(); got != filepath.Join(xdg, "lwgcn") {
		t.Errorf("outside the repo: %q, want %s/lwgcn", got, xdg)
	}
}

func TestMirrorFromEnvironment(t *testing.T) {
	shared := sharedDir(t)
	t.Setenv(datasets.EnvMirror, serveDir(t, copyFiles(t, shared, texasFiles...)).URL)
	g, err := datasets.Load(context.Background(), "texas", datasets.WithCacheDir(t.TempDir()), datasets.Silent())
	if err != nil || g.NumNodes() != 183 {
		t.Errorf("LWGCN_MIRROR: %v", err)
	}
}

func TestAvailable(t *testing.T) {
	shared := sharedDir(t)
	// Every dataset whose files are all in ../shared (the README lists what is
	// missing: crocodile.npz, arxiv.zip, three npz files).
	got, err := datasets.Available(datasets.WithMirror(shared), datasets.WithCacheDir(t.TempDir()))
	want := []string{"chameleon", "chameleon_filtered", "citeseer", "citeseer_gnnbench", "cora", "cora_gnnbench",
		"cornell", "minesweeper", "pubmed", "squirrel", "squirrel_filtered", "texas", "tolokers", "wisconsin"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("with the shared mirror: %v (%v)\nwant %v", got, err, want)
	}
	cache := t.TempDir()
	if _, err := datasets.Load(context.Background(), "texas", datasets.WithMirror(serveDir(t, shared).URL),
		datasets.WithCacheDir(cache), datasets.Silent()); err != nil {
		t.Fatal(err)
	}
	got, _ = datasets.Available(datasets.WithMirror(""), datasets.WithCacheDir(cache))
	if !slices.Equal(got, []string{"texas"}) {
		t.Errorf("cache holding texas: %v", got)
	}
}

// A mirror file of the wrong size (truncated, empty, appended) makes its
// dataset damaged with the reason, where Available used to drop it silently.
func TestSurveyReportsWrongSizes(t *testing.T) {
	shared := sharedDir(t)
	full, err := os.ReadFile(filepath.Join(shared, texasEdges))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"truncated": full[:100], "empty": {}, "appended": append(slices.Clone(full), '\n')} {
		mirror := copyFiles(t, shared, texasFiles...)
		writeFile(t, filepath.Join(mirror, texasEdges), content)
		local, err := datasets.Survey(datasets.WithMirror(mirror), datasets.WithCacheDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		var texas datasets.LocalStatus
		for _, l := range local {
			if l.Name == "texas" {
				texas = l
			} else if l.Complete || l.Damaged() {
				t.Errorf("%s: %s reported %+v with only texas's files", name, l.Name, l)
			}
		}
		want := fmt.Sprintf("%s has %d bytes, want %d (truncated, empty or appended?)", filepath.Join(mirror, texasEdges),
			len(content), len(full))
		if texas.Complete || texas.Problem != want {
			t.Errorf("%s: texas %+v, want problem %q", name, texas, want)
		}
		if got, _ := datasets.Available(datasets.WithMirror(mirror), datasets.WithCacheDir(t.TempDir())); len(got) != 0 {
			t.Errorf("%s: available %v", name, got)
		}
	}
}
