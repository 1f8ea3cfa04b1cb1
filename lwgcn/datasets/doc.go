// Package datasets downloads, verifies and loads the benchmark graphs of the
// LW-GCN paper (and a few related ones) as *graph.Graph.
//
//	g, err := datasets.Load(ctx, "texas")          // download if needed, verify, parse
//	datasets.Names()                                // registered names
//	d, ok := datasets.Lookup("cora")                // files, URLs, sizes, SHA-256
//	have, _ := datasets.Available()                 // loadable without the network
//
// Per-format functions load files you already have: LoadGeomGCN,
// ReadGeomGCNFeatures, ReadGeomGCNEdges, ReadSplitNPZ,
// LoadGeomGCNWithNPZFeatures, LoadHeterophilousNPZ, LoadPlanetoid /
// ReadPlanetoid, LoadWikipediaNPZ, LoadArxivYear / ReadOGBArxiv /
// ReadArxivYearSplits / EvenQuantileLabels, LoadGNNBenchmarkNPZ. Subpackage
// npy reads .npy/.npz; subpackage pypickle decodes the NumPy/SciPy pickles.
//
// # Registry and checksums
//
// Every file has a canonical URL pinned to the commit the reference loaders
// use (raw.githubusercontent.com/<repo>/<commit>/<path>; PyG's Geom-GCN commit
// f1fc0d14), a cache path <MirrorDir>/<path> and, for the 126 files of
// ../shared/datasets/MANIFEST.tsv, a size and SHA-256 compiled into
// pinned_gen.go (go generate runs internal/genmanifest; the manifest is never
// read at run time). Files we cannot checksum here are unpinned: the Geom-GCN
// chameleon/squirrel feature files, the roman_empire,
// amazon_ratings and questions npz, crocodile.npz and arxiv.zip. For those the
// first download is trusted: its SHA-256 is written to <file>.sha256 (in
// sha256sum format), a one-line notice says so, and every later use or
// download is verified against that record. That first download must come
// from the file's canonical host: a mirror's copy of an unpinned file is
// refused (before it is downloaded) unless the sum is recorded already or
// the user passes it (WithSHA256, lwgcn -sha256 FILE=SUM), so a hostile
// mirror cannot have its file recorded as the trusted one.
//
// # Cache, mirror, downloads
//
// The cache directory is, in order: WithCacheDir; $LWGCN_DATA; <repo>/data/cache
// when the working directory is inside the lwgcn repository (a parent holds
// the go.mod of github.com/lwgcn/toolkit); otherwise os.UserCacheDir()/lwgcn
// ($XDG_CACHE_HOME/lwgcn or ~/.cache/lwgcn on Linux). See CacheDir.
//
// A mirror (WithMirror, else $LWGCN_MIRROR) replaces the canonical hosts. It
// is an http(s) base URL or a local directory laid out like ../shared/datasets:
// <mirror>/<MirrorDir>/<path>, with MirrorDir geom-gcn, heterophilous-graphs,
// planetoid, MUSAE, LWGCN, gnn-benchmark, graphmining.ai (crocodile.npz) and
// snap.stanford.edu (ogb/data/nodeproppred/arxiv.zip). The cache uses the same
// layout, so a cache directory can serve as a mirror.
//
// Downloads stream into a temporary file in the destination directory, are
// cut at the pinned size (unpinned files at MaxUnpinnedBytes: an endless
// response fails there, not when the disk is full), checked (size and
// SHA-256) and only then renamed into place; on any error,
// including a checksum mismatch (a *ChecksumError naming the file, the
// expected and the actual hash), the temporary file is removed. A file in the
// cache is therefore always complete, and it is re-verified on every Load.
// Dialing, TLS and response headers time out after 30 s, a transfer that
// receives nothing for 60 s (WithStallTimeout) is aborted, and the context
// cancels everything. Files of 256 KiB or more get a progress bar on stdout
// (WithProgress, Silent; stdout because notebooks show stderr as an error).
//
// # Edges: what each loader returns, compared with PyG and the paper
//
// No loader symmetrises, removes self loops or deduplicates unless stated;
// apply graph transforms (ToUndirected, RemoveSelfLoops, Coalesce) yourself.
//
//   - Geom-GCN (texas, wisconsin, cornell, chameleon, squirrel): the rows of
//     out1_graph_edges.txt as given, directed, duplicates and self loops kept.
//     PyG's WebKB and WikipediaNetwork(geom_gcn_preprocess=True) coalesce them
//     (sort, drop duplicate rows; self loops stay). The paper's Table 4 counts:
//     Texas 309 = the 325 rows without their 16 self loops; Cornell 280 = the
//     unique undirected pairs of its 298 rows (277 pairs plus 3 self loops);
//     Wisconsin 515, Chameleon 36,101 and Squirrel 217,073 = the rows.
//   - chameleon and squirrel by default take features and labels from the
//     heterophilous-graphs npz of the same graph, whose node numbering is
//     Geom-GCN's (its undirected edge set equals the Geom-GCN rows' without
//     self loops and its 10 masks equal the Geom-GCN splits; tests check
//     this), because the Geom-GCN feature file is not pinned here;
//     WithGeomGCNFeatures uses the Geom-GCN file instead. Edges and splits
//     always come from the Geom-GCN files.
//   - Cornell: Geom-GCN's out1_node_feature_label.txt for Cornell is
//     byte-identical to Texas's (same SHA-256 in the manifest), so Cornell
//     carries Texas's features and labels on its own edges. That is what PyG,
//     Geom-GCN and the paper used, and it is kept.
//   - heterophilous-graphs npz (chameleon_filtered, squirrel_filtered,
//     minesweeper, tolokers, roman_empire, amazon_ratings, questions): each
//     undirected edge is stored once; those rows are returned as one directed
//     edge each. The authors' code and PyG's HeterophilousGraphDataset make
//     them undirected (call ToUndirected).
//   - Planetoid (cora, citeseer, pubmed): exactly PyG's Planetoid: the
//     adjacency dict's pairs without self loops, coalesced; the dicts are
//     symmetric, so Cora has 10,556 directed edges = 2 x 5,278. The paper's
//     Cora count 5,429 is the raw LINQS citation list (cora_gnnbench).
//   - crocodile (PyG WikipediaNetwork npz): the stored rows; PyG coalesces.
//   - arxiv-year: ogbn-arxiv's edge.csv.gz as given (directed citations);
//     LINKX symmetrises at training time.
//   - cora_gnnbench, citeseer_gnnbench: the adjacency's stored non-zeros, one
//     per directed citation (Cora 5,429), raw LINQS node order.
//
// # Features, labels, splits
//
// Geom-GCN (chameleon and squirrel included), Planetoid and gnn-benchmark
// features are sparse (CSR); other npz features are sparse when fewer than
// 20 % of the entries are non-zero, dense otherwise; ogbn-arxiv's 128-d
// features are dense. Geom-GCN graphs carry the
// ten "0.6/0.2" split files (really about 48/32/20: 87/59/37 on Texas);
// heterophilous graphs their ten masks; Planetoid the public split (first
// len(y) nodes / next 500 / test.index), or Geom-GCN's ten splits with
// WithGeomGCNSplits; arxiv-year LINKX's five fixed splits. arxiv-year's five
// classes are LINKX's even_quantile_labels(node_year, 5) (EvenQuantileLabels):
// boundaries at the 20/40/60/80 % quantiles of the years (NumPy's linear
// interpolation), class k holding years in [q_k, q_{k+1}).
package datasets
