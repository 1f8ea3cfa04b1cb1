package datasets

import "github.com/lwgcn/toolkit/lwgcn/graph"

// Standard applies the preprocessing every experiment of this project uses
// (the LW-GCN authors' pipeline) to a loaded dataset: row-normalised features
// for the Planetoid graphs (PyG's NormalizeFeatures, as their code applies),
// undirected edges for the heterophilous-graphs npz (which store each edge
// once; their authors symmetrise too), every other graph as loaded. It keys
// on the graph's name, which Load sets to the dataset name.
func Standard(g *graph.Graph) *graph.Graph {
	switch g.Name() {
	case "cora", "citeseer", "pubmed":
		return g.RowNormalizeFeatures()
	case "chameleon_filtered", "squirrel_filtered", "minesweeper", "tolokers", "roman_empire", "amazon_ratings", "questions":
		return g.ToUndirected()
	}
	return g
}
