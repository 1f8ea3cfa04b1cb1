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
// checksums (Load verifies those). Survey also reports damaged datasets.
func Available(opts ...Option) ([]string, error) {
	local, err := Survey(opts...)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range local {
		if l.Complete {
			out = append(out, l.Name)
		}
	}
	return out, nil
}

// LocalStatus is what Survey finds of one dataset's files.
type LocalStatus struct {
	Name string
	// Complete: every file is present, pinned files at their size.
	Complete bool
	// Problem, when not complete, says what is wrong with a file that is
	// present (its size differs from the pinned one: truncated, empty or
	// appended); "" when the files are simply absent.
	Problem string
}

// Damaged reports a dataset with a present but wrong file.
func (l LocalStatus) Damaged() bool { return l.Problem != "" }

// Survey returns, for every registered dataset in name order, whether its
// files (under the options) are complete in the cache or a local mirror
// directory, or present with the wrong size. It reads sizes only.
func Survey(opts ...Option) ([]LocalStatus, error) {
	cfg := newConfig(opts)
	dir, err := cfg.resolveCacheDir()
	if err != nil {
		return nil, err
	}
	roots := []string{dir}
	if mdir, local := cfg.mirrorDir(); local {
		roots = append(roots, mdir)
	}
	// check returns whether f is usable in some root, else the problem of a
	// wrong copy ("" when there is none).
	check := func(f File) (bool, string) {
		problem := ""
		for _, root := range roots {
			p := filepath.Join(root, filepath.FromSlash(f.CachePath()))
			st, err := os.Stat(p)
			switch {
			case err != nil:
				continue
			case !st.Mode().IsRegular():
				problem = fmt.Sprintf("%s is not a regular file", p)
			case f.Pinned() && st.Size() != f.Size:
				problem = fmt.Sprintf("%s has %d bytes, want %d (truncated, empty or appended?)", p, st.Size(), f.Size)
			default:
				return true, ""
			}
		}
		return false, problem
	}
	var out []LocalStatus
	for _, name := range Names() {
		st := LocalStatus{Name: name, Complete: true}
		for _, f := range registry[name].filesFor(cfg) {
			ok, problem := check(f)
			st.Complete = st.Complete && ok
			if problem != "" && st.Problem == "" {
				st.Problem = problem
			}
		}
		out = append(out, st)
	}
	return out, nil
}

func filepathDir(p string) string { return filepath.Dir(p) }
