package datasets

//go:generate go run ./internal/genmanifest -manifest ../../../shared/datasets/MANIFEST.tsv -out pinned_gen.go

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Source is where a group of files is published: a GitHub repository pinned to
// a commit, or a web host.
type Source struct {
	// Name is a short identifier, e.g. "geom-gcn".
	Name string
	// Repo is the GitHub repository ("owner/name"), or "" for a web host.
	Repo string
	// Commit pins Repo; "" for a web host.
	Commit string
	// BaseURL is the canonical download prefix; a file's URL is BaseURL + Path.
	BaseURL string
	// MirrorDir is the directory that holds this source's files in a mirror and
	// in the cache, laid out like ../shared/datasets: MirrorDir/Path.
	MirrorDir string
	// License summarises the terms the data is published under.
	License string
}

// The sources. GitHub files are fetched from raw.githubusercontent.com at the
// commit that PyG (Geom-GCN) or the manifest pins.
var (
	SourceGeomGCN = Source{Name: "geom-gcn", Repo: "graphdml-uiuc-jlu/geom-gcn",
		Commit:    "f1fc0d14b3b019c562737240d06ec83b07d16a8f",
		MirrorDir: "geom-gcn",
		License:   "no licence file; WebKB (Craven et al.) and MUSAE Wikipedia data preprocessed by Pei et al. (ICLR 2020)"}
	SourceHeterophilous = Source{Name: "heterophilous-graphs", Repo: "yandex-research/heterophilous-graphs",
		Commit:    "a431395582e929d88271309716bea4fe24ce6318",
		MirrorDir: "heterophilous-graphs", License: "MIT (Platonov et al., ICLR 2023)"}
	SourcePlanetoid = Source{Name: "planetoid", Repo: "kimiyoung/planetoid",
		Commit:    "af6abf468a772cc055bec88c52e4d6f51b7c37e3",
		MirrorDir: "planetoid", License: "MIT (Yang et al., 2016); data from LINQS"}
	SourceMUSAE = Source{Name: "MUSAE", Repo: "benedekrozemberczki/MUSAE",
		Commit:    "5f901232957b6c9985d750aac48cda39a4b24285",
		MirrorDir: "MUSAE", License: "GPL-3.0 (Rozemberczki et al.)"}
	SourceLWGCN = Source{Name: "LWGCN", Repo: "EnyanDai/LWGCN",
		Commit:    "90dc18349f6d9fb7e1e8057edc2352491dafacfb",
		MirrorDir: "LWGCN", License: "no licence file; arxiv-year splits from LINKX (CUAI/Non-Homophily-Large-Scale)"}
	SourceGNNBenchmark = Source{Name: "gnn-benchmark", Repo: "shchur/gnn-benchmark",
		Commit:    "1e72912a0810cdf27ae54fd589a3b43358a2b161",
		MirrorDir: "gnn-benchmark", License: "MIT (Shchur et al., 2018); data from LINQS"}
	SourcePyGWiki = Source{Name: "graphmining.ai", BaseURL: "https://graphmining.ai/",
		MirrorDir: "graphmining.ai", License: "PyG's WikipediaNetwork copy of MUSAE (GPL-3.0)"}
	SourceOGB = Source{Name: "ogb", BaseURL: "http://snap.stanford.edu/",
		MirrorDir: "snap.stanford.edu", License: "ODC-BY (ogbn-arxiv, Hu et al. 2020)"}
)

func init() {
	for _, s := range []*Source{&SourceGeomGCN, &SourceHeterophilous, &SourcePlanetoid, &SourceMUSAE, &SourceLWGCN,
		&SourceGNNBenchmark} {
		s.BaseURL = "https://raw.githubusercontent.com/" + s.Repo + "/" + s.Commit + "/"
	}
}

// File is one file a dataset needs.
type File struct {
	// Source publishes the file.
	Source Source
	// Path is the file's path inside the source (a repository path for GitHub).
	Path string
	// Size in bytes; 0 when unpinned.
	Size int64
	// SHA256 in lower-case hex; "" when unpinned (trust on first use: the
	// downloader records the sum it sees and verifies later copies against it).
	SHA256 string
}

// URL is the canonical download address.
func (f File) URL() string { return f.Source.BaseURL + f.Path }

// CachePath is the slash-separated path relative to the cache (and to a
// mirror): MirrorDir/Path, as in ../shared/datasets.
func (f File) CachePath() string { return f.Source.MirrorDir + "/" + f.Path }

// Pinned reports whether the size and SHA-256 are known in advance.
func (f File) Pinned() bool { return f.SHA256 != "" }

type pinnedFile struct {
	Size                   int64
	SHA256                 string
	Repo, Commit, RepoPath string
}

// file builds a File, filling in size and checksum from the pinned table.
func file(s Source, path string) File {
	f := File{Source: s, Path: path}
	if p, ok := pinnedFiles[f.CachePath()]; ok {
		f.Size, f.SHA256 = p.Size, p.SHA256
	}
	return f
}

// Dataset is a registry entry.
type Dataset struct {
	// Name is what Load takes, e.g. "texas".
	Name string
	// Description is one line about the graph and its source.
	Description string
	// Format names the file format and loader, e.g. "geom-gcn".
	Format string
	// Files are the files Load needs by default.
	Files []File
	// Optional are files used only with an option (WithGeomGCNFeatures,
	// WithGeomGCNSplits).
	Optional []File
	// NumNodes and NumClasses are the published counts (for documentation and
	// tests; 0 when not known here).
	NumNodes, NumClasses int

	load func(fs fileSet, cfg *config) (*graph.Graph, error)
}

// Sources returns the distinct sources of the dataset's files.
func (d Dataset) Sources() []Source {
	var out []Source
	for _, f := range append(slices.Clone(d.Files), d.Optional...) {
		if !slices.ContainsFunc(out, func(s Source) bool { return s.Name == f.Source.Name }) {
			out = append(out, f.Source)
		}
	}
	return out
}

// fileSet maps a File.CachePath to the local path of the verified file.
type fileSet map[string]string

func (fs fileSet) path(f File) string { return fs[f.CachePath()] }

var registry = map[string]Dataset{}

func register(d Dataset) {
	if _, dup := registry[d.Name]; dup {
		panic("datasets: duplicate registration of " + d.Name)
	}
	registry[d.Name] = d
}

// Names returns the registered dataset names, sorted.
func Names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Lookup returns the registry entry for name.
func Lookup(name string) (Dataset, bool) {
	d, ok := registry[name]
	return d, ok
}

func lookupErr(name string) error {
	return fmt.Errorf("datasets: unknown dataset %q (known: %s)", name, strings.Join(Names(), ", "))
}

// geomGCNSplits lists the ten Geom-GCN split files of a dataset.
func geomGCNSplits(name string) []File {
	out := make([]File, 10)
	for i := range out {
		out[i] = file(SourceGeomGCN, fmt.Sprintf("splits/%s_split_0.6_0.2_%d.npz", name, i))
	}
	return out
}

func init() {
	for _, w := range []struct {
		name, desc string
		nodes      int
	}{
		{"texas", "WebKB Texas (Geom-GCN preprocessing): 183 web pages, 1,703 bag-of-words features, 5 classes", 183},
		{"wisconsin", "WebKB Wisconsin (Geom-GCN preprocessing): 251 web pages, 1,703 bag-of-words features, 5 classes", 251},
		{"cornell", "WebKB Cornell (Geom-GCN preprocessing): 183 web pages, 5 classes; its feature file is byte-identical " +
			"to Texas's (the features and labels the paper used)", 183},
	} {
		name := w.name
		feat := file(SourceGeomGCN, "new_data/"+name+"/out1_node_feature_label.txt")
		edges := file(SourceGeomGCN, "new_data/"+name+"/out1_graph_edges.txt")
		splits := geomGCNSplits(name)
		register(Dataset{Name: name, Description: w.desc, Format: "geom-gcn",
			Files: append([]File{feat, edges}, splits...), NumNodes: w.nodes, NumClasses: 5,
			load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
				return LoadGeomGCN(name, fs.path(feat), fs.path(edges), paths(fs, splits), 5)
			}})
	}
	for _, w := range []struct {
		name, desc string
		nodes      int
	}{
		{"chameleon", "Wikipedia Chameleon (Geom-GCN preprocessing): 2,277 pages, 2,325 features, 5 classes", 2277},
		{"squirrel", "Wikipedia Squirrel (Geom-GCN preprocessing): 5,201 pages, 2,089 features, 5 classes", 5201},
	} {
		name := w.name
		feat := file(SourceGeomGCN, "new_data/"+name+"/out1_node_feature_label.txt")
		edges := file(SourceGeomGCN, "new_data/"+name+"/out1_graph_edges.txt")
		npz := file(SourceHeterophilous, "data/"+name+".npz")
		splits := geomGCNSplits(name)
		register(Dataset{Name: name, Description: w.desc, Format: "geom-gcn",
			Files: append([]File{npz, edges}, splits...), Optional: []File{feat},
			NumNodes: w.nodes, NumClasses: 5,
			load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
				if cfg.geomGCNFeatures {
					return LoadGeomGCN(name, fs.path(feat), fs.path(edges), paths(fs, splits), 5)
				}
				return LoadGeomGCNWithNPZFeatures(name, fs.path(npz), fs.path(edges), paths(fs, splits))
			}})
	}
	for _, h := range []struct {
		name, desc     string
		nodes, classes int
	}{
		{"chameleon_filtered", "Chameleon without duplicated nodes (Platonov et al. 2023): 890 nodes, 5 classes", 890, 5},
		{"squirrel_filtered", "Squirrel without duplicated nodes (Platonov et al. 2023): 2,223 nodes, 5 classes", 2223, 5},
		{"minesweeper", "Minesweeper grid (Platonov et al. 2023): 10,000 nodes, 2 classes", 10000, 2},
		{"tolokers", "Tolokers crowd-worker graph (Platonov et al. 2023): 11,758 nodes, 2 classes", 11758, 2},
		{"roman_empire", "Roman-empire word graph (Platonov et al. 2023): 22,662 nodes, 18 classes", 22662, 18},
		{"amazon_ratings", "Amazon-ratings co-purchase graph (Platonov et al. 2023): 24,492 nodes, 5 classes", 24492, 5},
		{"questions", "Questions user graph (Platonov et al. 2023): 48,921 nodes, 2 classes", 48921, 2},
	} {
		name, classes := h.name, h.classes
		npz := file(SourceHeterophilous, "data/"+name+".npz")
		register(Dataset{Name: name, Description: h.desc, Format: "heterophilous-graphs",
			Files: []File{npz}, NumNodes: h.nodes, NumClasses: classes,
			load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
				return LoadHeterophilousNPZ(name, fs.path(npz), classes)
			}})
	}
	for _, p := range []struct {
		name, desc     string
		nodes, classes int
	}{
		{"cora", "Cora citations (Planetoid, public split): 2,708 nodes, 1,433 features, 7 classes", 2708, 7},
		{"citeseer", "CiteSeer citations (Planetoid, public split): 3,327 nodes, 3,703 features, 6 classes", 3327, 6},
		{"pubmed", "PubMed citations (Planetoid, public split): 19,717 nodes, 500 features, 3 classes", 19717, 3},
	} {
		name := p.name
		var files []File
		for _, ext := range planetoidExts {
			files = append(files, file(SourcePlanetoid, "data/ind."+name+"."+ext))
		}
		splits := geomGCNSplits(name)
		register(Dataset{Name: name, Description: p.desc, Format: "planetoid", Files: files, Optional: splits,
			NumNodes: p.nodes, NumClasses: p.classes,
			load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
				g, err := LoadPlanetoid(name, filepathDir(fs.path(files[0])))
				if err != nil || !cfg.geomGCNSplits {
					return g, err
				}
				var sp []graph.Split
				for _, f := range splits {
					s, err := ReadSplitNPZ(fs.path(f), g.NumNodes())
					if err != nil {
						return nil, err
					}
					sp = append(sp, s)
				}
				return g.WithSplits(sp)
			}})
	}
	croc := file(SourcePyGWiki, "datasets/ptg/wiki/crocodile.npz")
	register(Dataset{Name: "crocodile", Format: "wikipedia-npz",
		Description: "Wikipedia Crocodile (MUSAE, PyG WikipediaNetwork npz): 11,631 pages, 5 classes",
		Files:       []File{croc}, NumNodes: 11631, NumClasses: 5,
		load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
			return LoadWikipediaNPZ("crocodile", fs.path(croc), 5)
		}})
	arxivZip := file(SourceOGB, "ogb/data/nodeproppred/arxiv.zip")
	arxivSplits := file(SourceLWGCN, "data/splits/arxiv-year-splits.npy")
	register(Dataset{Name: "arxiv-year", Format: "ogb-arxiv-year",
		Description: "ogbn-arxiv with 5 publication-year classes (LINKX): 169,343 nodes, 128 features, 5 fixed splits",
		Files:       []File{arxivZip, arxivSplits}, NumNodes: 169343, NumClasses: 5,
		load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
			return LoadArxivYear(fs.path(arxivZip), fs.path(arxivSplits))
		}})
	for _, g := range []struct {
		name, raw, desc string
		nodes, classes  int
	}{
		{"cora_gnnbench", "cora", "Cora in raw LINQS order (gnn-benchmark npz): 2,708 nodes, 5,429 directed citations, 7 classes", 2708, 7},
		{"citeseer_gnnbench", "citeseer", "CiteSeer in raw LINQS order (gnn-benchmark npz): 3,312 nodes, 4,715 citations, 6 classes", 3312, 6},
	} {
		name := g.name
		npz := file(SourceGNNBenchmark, "data/npz/"+g.raw+".npz")
		register(Dataset{Name: name, Description: g.desc, Format: "gnn-benchmark", Files: []File{npz},
			NumNodes: g.nodes, NumClasses: g.classes,
			load: func(fs fileSet, cfg *config) (*graph.Graph, error) {
				return LoadGNNBenchmarkNPZ(name, fs.path(npz))
			}})
	}
}

func paths(fs fileSet, files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = fs.path(f)
	}
	return out
}
