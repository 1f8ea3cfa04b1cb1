package datasets_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
)

func TestRegistryHasEveryDataset(t *testing.T) {
	want := []string{"texas", "wisconsin", "cornell", "chameleon", "squirrel", "chameleon_filtered",
		"squirrel_filtered", "minesweeper", "tolokers", "roman_empire", "amazon_ratings", "questions", "cora",
		"citeseer", "pubmed", "crocodile", "arxiv-year"}
	names := datasets.Names()
	if !sort.StringsAreSorted(names) {
		t.Errorf("Names not sorted: %v", names)
	}
	for _, n := range want {
		d, ok := datasets.Lookup(n)
		if !ok || d.Name != n || d.Description == "" || len(d.Files) == 0 || len(d.Sources()) == 0 {
			t.Errorf("Lookup(%q) = %+v, %v", n, d.Name, ok)
		}
		if !slices.Contains(names, n) {
			t.Errorf("Names lacks %q", n)
		}
	}
	if _, ok := datasets.Lookup("nope"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
}

func fileOf(t *testing.T, name, suffix string) datasets.File {
	t.Helper()
	d, _ := datasets.Lookup(name)
	for _, f := range append(d.Files, d.Optional...) {
		if strings.HasSuffix(f.Path, suffix) {
			return f
		}
	}
	t.Fatalf("%s has no file ending in %s", name, suffix)
	return datasets.File{}
}

func TestCanonicalURLsArePinnedToCommits(t *testing.T) {
	cases := []struct{ name, suffix, url, cache string }{
		{"texas", "texas/out1_node_feature_label.txt",
			"https://raw.githubusercontent.com/graphdml-uiuc-jlu/geom-gcn/f1fc0d14b3b019c562737240d06ec83b07d16a8f/new_data/texas/out1_node_feature_label.txt",
			"geom-gcn/new_data/texas/out1_node_feature_label.txt"},
		{"texas", "texas_split_0.6_0.2_3.npz",
			"https://raw.githubusercontent.com/graphdml-uiuc-jlu/geom-gcn/f1fc0d14b3b019c562737240d06ec83b07d16a8f/splits/texas_split_0.6_0.2_3.npz",
			"geom-gcn/splits/texas_split_0.6_0.2_3.npz"},
		{"minesweeper", "minesweeper.npz",
			"https://raw.githubusercontent.com/yandex-research/heterophilous-graphs/a431395582e929d88271309716bea4fe24ce6318/data/minesweeper.npz",
			"heterophilous-graphs/data/minesweeper.npz"},
		{"cora", "ind.cora.test.index",
			"https://raw.githubusercontent.com/kimiyoung/planetoid/af6abf468a772cc055bec88c52e4d6f51b7c37e3/data/ind.cora.test.index",
			"planetoid/data/ind.cora.test.index"},
		{"arxiv-year", "arxiv.zip", "http://snap.stanford.edu/ogb/data/nodeproppred/arxiv.zip",
			"snap.stanford.edu/ogb/data/nodeproppred/arxiv.zip"},
		{"arxiv-year", "arxiv-year-splits.npy",
			"https://raw.githubusercontent.com/EnyanDai/LWGCN/90dc18349f6d9fb7e1e8057edc2352491dafacfb/data/splits/arxiv-year-splits.npy",
			"LWGCN/data/splits/arxiv-year-splits.npy"},
		{"crocodile", "crocodile.npz", "https://graphmining.ai/datasets/ptg/wiki/crocodile.npz",
			"graphmining.ai/datasets/ptg/wiki/crocodile.npz"},
		{"chameleon", "chameleon/out1_node_feature_label.txt",
			"https://raw.githubusercontent.com/graphdml-uiuc-jlu/geom-gcn/f1fc0d14b3b019c562737240d06ec83b07d16a8f/new_data/chameleon/out1_node_feature_label.txt",
			"geom-gcn/new_data/chameleon/out1_node_feature_label.txt"},
	}
	for _, c := range cases {
		f := fileOf(t, c.name, c.suffix)
		if f.URL() != c.url || f.CachePath() != c.cache {
			t.Errorf("%s %s:\n URL   %s\n want  %s\n cache %s, want %s", c.name, c.suffix, f.URL(), c.url, f.CachePath(), c.cache)
		}
	}
}

func TestUnpinnedFilesAreExactlyThoseWeCannotKnow(t *testing.T) {
	var unpinned []string
	seen := map[string]bool{}
	for _, n := range datasets.Names() {
		d, _ := datasets.Lookup(n)
		for _, f := range append(d.Files, d.Optional...) {
			if seen[f.CachePath()] {
				continue
			}
			seen[f.CachePath()] = true
			if !f.Pinned() {
				if f.Size != 0 {
					t.Errorf("%s: unpinned with a size", f.CachePath())
				}
				unpinned = append(unpinned, f.CachePath())
			} else if f.Size <= 0 || len(f.SHA256) != 64 {
				t.Errorf("%s: pinned with size %d sha %q", f.CachePath(), f.Size, f.SHA256)
			}
		}
	}
	want := []string{
		"geom-gcn/new_data/chameleon/out1_node_feature_label.txt",
		"geom-gcn/new_data/squirrel/out1_node_feature_label.txt",
		"graphmining.ai/datasets/ptg/wiki/crocodile.npz",
		"heterophilous-graphs/data/amazon_ratings.npz",
		"heterophilous-graphs/data/questions.npz",
		"heterophilous-graphs/data/roman_empire.npz",
		"snap.stanford.edu/ogb/data/nodeproppred/arxiv.zip",
	}
	sort.Strings(unpinned)
	if !slices.Equal(unpinned, want) {
		t.Errorf("unpinned files:\n%s\nwant:\n%s", strings.Join(unpinned, "\n"), strings.Join(want, "\n"))
	}
}

func TestRegisteredFilesMatchManifest(t *testing.T) {
	man := readManifest(t)
	for _, n := range datasets.Names() {
		d, _ := datasets.Lookup(n)
		for _, f := range append(d.Files, d.Optional...) {
			row, ok := man[f.CachePath()]
			if !ok {
				if f.Pinned() {
					t.Errorf("%s is pinned but not in MANIFEST.tsv", f.CachePath())
				}
				continue
			}
			if f.Size != row.size || f.SHA256 != row.sha || f.Source.Commit != row.commit {
				t.Errorf("%s: registry %d %s @%s, manifest %d %s @%s", f.CachePath(), f.Size, f.SHA256,
					f.Source.Commit, row.size, row.sha, row.commit)
			}
		}
	}
}
