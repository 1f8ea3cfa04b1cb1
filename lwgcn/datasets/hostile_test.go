package datasets_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// The loaders' hostile-input corpus (issue 35): small files that ask for
// more memory than there is. Each must fail with one line naming the file
// (and line or key) and be limits.ErrTooLarge, before allocating. Inputs are
// generated here; nothing is committed. The budget is set, so the cases do
// not depend on the machine's memory.

func TestHostilePlanetoidTestIndex(t *testing.T) {
	t.Setenv(limits.EnvMaxMemory, "1GiB")
	dir := t.TempDir()
	writePlanetoid(t, dir, toyPlanetoidGraph, "507\n504\n2147483000\n")
	_, err := datasets.LoadPlanetoid("pubmed", dir)
	dstest.TooLarge(t, "test index 2147483000", err, "ind.pubmed.test.index", "2147483000")
}

// A graph pickle whose dict values are memo references to one long list:
// 400 KB of pickle that expands to 300 lists of 50,000 neighbours.
func TestHostileMemoAmplifiedPickle(t *testing.T) {
	t.Setenv(limits.EnvMaxMemory, "64MiB")
	dir := t.TempDir()
	writePlanetoid(t, dir, toyPlanetoidGraph, "507\n504\n506\n")
	long := make([]int, 50_000)
	for i := range long {
		long[i] = i % 500
	}
	p := fx.NewPickle()
	p.Global("collections", "defaultdict").Global("__builtin__", "list").Op("TUPLE1", "REDUCE")
	p.Op("MARK")
	p.Int(0).IntList(long).Raw('q', 1) // BINPUT 1: memoise the list
	for k := 1; k < 300; k++ {
		p.Int(k).Raw('h', 1) // BINGET 1: the same list again
	}
	p.Op("SETITEMS")
	b := p.Bytes()
	if len(b) > 500<<10 {
		t.Fatalf("the pickle has %d bytes", len(b))
	}
	writeFile(t, filepath.Join(dir, "ind.pubmed.graph"), b)
	_, err := datasets.LoadPlanetoid("pubmed", dir)
	dstest.TooLarge(t, "memo-amplified graph pickle", err, "ind.pubmed.graph", "15000000 neighbour entries")
}

// An npz whose array announces more than the budget (a deflated array of
// zeros: a few hundred KB on disk).
func TestHostileNPZ(t *testing.T) {
	t.Setenv(limits.EnvMaxMemory, "64MiB")
	zeros := make([]byte, 128<<20) // 32 Mi float32
	npz := fx.NPZ(true, fx.Member{Name: "node_features", Data: fx.NPY("<f4", []int{1 << 15, 1 << 10}, false, zeros)})
	if len(npz) > 1<<20 {
		t.Fatalf("the npz has %d bytes", len(npz))
	}
	path := writeTemp(t, "bomb.npz", npz)
	_, err := datasets.LoadHeterophilousNPZ("bomb", path, 0)
	dstest.TooLarge(t, "npz of 128 MiB of zeros", err, path, "node_features", "(32768, 1024)")
}

// An arxiv.zip whose edge list decompresses to more than the cap.
func TestHostileArxivDecompression(t *testing.T) {
	t.Setenv(limits.EnvMaxMemory, "64MiB")
	edges := bytes.Repeat([]byte("0,1\n"), 16<<20) // 64 MiB of text
	zp := writeTemp(t, "arxiv.zip", arxivZip(map[string][]byte{"arxiv/raw/edge.csv.gz": fx.Gzip(edges)}))
	sp := writeTemp(t, "splits.npy", fx.NPY("|O", []int{1}, false, fx.SplitDicts([][3][]int{{{0, 1, 2, 3, 4}, {5, 6, 7}, {8, 9, 10}}})))
	_, err := datasets.LoadArxivYear(zp, sp)
	dstest.TooLarge(t, "gzip bomb in arxiv.zip", err, zp, "edge.csv.gz")
}

// canonicalHost sends every request to srv, as if srv were the file's
// canonical host (a client given with WithHTTPClient and no mirror).
func canonicalHost(srv *httptest.Server) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r2 := r.Clone(r.Context())
		u, _ := url.Parse(srv.URL)
		r2.URL.Scheme, r2.URL.Host, r2.Host = u.Scheme, u.Host, u.Host
		return http.DefaultTransport.RoundTrip(r2)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// endless serves an endless body without a Content-Length.
func endless(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := bytes.Repeat([]byte("0,1\n"), 512)
		for r.Context().Err() == nil {
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Downloads stop at the pinned size (9): an endless response for a pinned
// file fails after its size, leaving nothing in the cache.
func TestHostileEndlessDownloadOfPinnedFile(t *testing.T) {
	cache := t.TempDir()
	start := time.Now()
	_, err := datasets.Load(context.Background(), "texas", datasets.WithMirror(endless(t).URL), datasets.WithCacheDir(cache),
		datasets.Silent())
	dstest.TooLarge(t, "endless pinned download", err, "geom-gcn/new_data/texas/out1_node_feature_label.txt", "pinned size")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the endless download ran %v", d)
	}
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("files left in the cache: %v", l)
	}
}

// Unpinned files stop at the stated limit (9).
func TestHostileEndlessDownloadOfUnpinnedFile(t *testing.T) {
	defer datasets.SetMaxUnpinnedBytes(1 << 20)()
	cache := t.TempDir()
	_, err := datasets.Load(context.Background(), "crocodile", datasets.WithMirror(""), datasets.WithHTTPClient(canonicalHost(endless(t))),
		datasets.WithCacheDir(cache), datasets.Silent())
	dstest.TooLarge(t, "endless unpinned download", err, "crocodile.npz", "1.0 MiB")
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("files left in the cache: %v", l)
	}
}

// An unpinned file from a mirror that is not its canonical host is refused
// unless the user passes its hash (8); the refusal records nothing, so the
// genuine file is still accepted later from the canonical host.
func TestHostileMirrorOfUnpinnedFile(t *testing.T) {
	const path = "graphmining.ai/datasets/ptg/wiki/crocodile.npz"
	fake := crocodileNPZ([]int64{1, 1, 1, 1, 1, 1})
	genuine := crocodileNPZ([]int64{0, 4, 2})
	mirror := t.TempDir()
	writeFile(t, filepath.Join(mirror, path), fake)
	canonical := t.TempDir()
	writeFile(t, filepath.Join(canonical, path), genuine)
	cache := t.TempDir()
	for name, m := range map[string]string{"http mirror": serveDir(t, mirror).URL, "directory mirror": mirror} {
		_, err := datasets.Load(context.Background(), "crocodile", datasets.WithMirror(m), datasets.WithCacheDir(cache), datasets.Silent())
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not pinned") ||
			!strings.Contains(err.Error(), "WithSHA256") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want a refusal naming the file and how to pass its hash", name, err)
		}
		if exists(filepath.Join(cache, path)) || exists(filepath.Join(cache, path+".sha256")) {
			t.Fatalf("%s: the refused file or its hash was recorded", name)
		}
	}
	// The wrong hash passed: a checksum error.
	_, err := datasets.Load(context.Background(), "crocodile", datasets.WithMirror(mirror), datasets.WithCacheDir(cache), datasets.Silent(),
		datasets.WithSHA256(path, sha256Hex(genuine)))
	var ce *datasets.ChecksumError
	if !errors.As(err, &ce) || ce.Expected != sha256Hex(genuine) || ce.Actual != sha256Hex(fake) {
		t.Errorf("mirror with another file's hash: %v", err)
	}
	// The genuine file from the canonical host is trusted on first use.
	g, err := datasets.Load(context.Background(), "crocodile", datasets.WithMirror(""), datasets.WithCacheDir(cache), datasets.Silent(),
		datasets.WithHTTPClient(canonicalHost(serveDir(t, filepath.Join(canonical, "graphmining.ai")))))
	if err != nil || g.NumNodes() != 3 {
		t.Fatalf("genuine file from the canonical host: %v, %v", g, err)
	}
	// A mirror with the matching hash passed is accepted.
	cache2 := t.TempDir()
	writeFile(t, filepath.Join(mirror, path), genuine)
	if _, err := datasets.Load(context.Background(), "crocodile", datasets.WithMirror(mirror), datasets.WithCacheDir(cache2), datasets.Silent(),
		datasets.WithSHA256(path, sha256Hex(genuine))); err != nil {
		t.Errorf("mirror with its hash passed: %v", err)
	}
}
