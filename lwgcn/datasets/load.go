package datasets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Load returns the named dataset, downloading and verifying its files first
// if they are not in the cache. See the package documentation for what each
// loader does to edges.
func Load(ctx context.Context, name string, opts ...Option) (*graph.Graph, error) {
	d, ok := Lookup(name)
	if !ok {
		return nil, lookupErr(name)
	}
	cfg := newConfig(opts)
	fs, err := cfg.fetchAll(ctx, d.filesFor(cfg))
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := d.load(fs, cfg)
	if err != nil {
		return nil, fmt.Errorf("datasets: loading %s: %w", name, err)
	}
	return g, nil
}

// Available returns, sorted, the datasets whose files (under the options) are
// all present in the cache or in a local mirror directory, so that Load needs
// no network. It downloads nothing and checks sizes of pinned files, not
// checksums (Load verifies those).
func Available(opts ...Option) ([]string, error) {
	cfg := newConfig(opts)
	dir, err := cfg.resolveCacheDir()
	if err != nil {
		return nil, err
	}
	mdir, local := cfg.mirrorDir()
	present := func(f File) bool {
		roots := []string{dir}
		if local {
			roots = append(roots, mdir)
		}
		for _, root := range roots {
			st, err := os.Stat(filepath.Join(root, filepath.FromSlash(f.CachePath())))
			if err == nil && st.Mode().IsRegular() && (!f.Pinned() || st.Size() == f.Size) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, name := range Names() {
		d := registry[name]
		ok := true
		for _, f := range d.filesFor(cfg) {
			if !present(f) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, name)
		}
	}
	return out, nil
}

func filepathDir(p string) string { return filepath.Dir(p) }
