package experiments

import (
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// MethodTitle is a method's name in tables.
func MethodTitle(m string) string {
	switch m {
	case "lwgcn":
		return "LW-GCN"
	case "lwgcn-p":
		return `LW-GCN\P`
	case "lwgcn-g":
		return `LW-GCN\G`
	case "lwgcn-gcn":
		return "LW-GCN_GCN"
	case "lwgcn+refine1":
		return "LW-GCN + 1 refinement"
	case "lwgcn+refine2":
		return "LW-GCN + 2 refinements"
	}
	if e, ok := zoo.Lookup(m); ok && e.Title != "" {
		return e.Title
	}
	return m
}

// DatasetTitle is a dataset's name in tables.
func DatasetTitle(d string) string {
	switch d {
	case "chameleon_filtered":
		return "Chameleon (filtered)"
	case "squirrel_filtered":
		return "Squirrel (filtered)"
	case "arxiv-year":
		return "arxiv-year"
	case BaseCSBM:
		return "CSBM"
	}
	if d == "" {
		return d
	}
	return string(d[0]-'a'+'A') + d[1:]
}

// Table2Methods are the methods of `lwgcn reproduce table2`: LW-GCN and the
// paper's baselines.
var Table2Methods = []string{"lwgcn", "mlp", "gcn", "gat", "gcnii",
	"mixhop", "supergat", "fagcn", "simpgcn", "h2gcn", "gprgnn", "bmgcn", "asgc", "linkx", "glognn++"}

// Table2Datasets are the datasets of `lwgcn reproduce table2`, in the
// table's column order.
var Table2Datasets = []string{"texas", "wisconsin", "cornell", "chameleon", "squirrel", "cora", "citeseer", "pubmed",
	"chameleon_filtered", "squirrel_filtered"}

// Table3Datasets are the datasets of `lwgcn reproduce table3`: the paper's
// Table 3 columns.
var Table3Datasets = []string{"cora", "citeseer", "pubmed", "texas", "chameleon", "squirrel"}

// PlatonovDatasets and PlatonovMethods are `lwgcn reproduce platonov`'s:
// the heterophily benchmark of Platonov et al. (2023) held here, LW-GCN,
// its ablations and Table 2's baselines.
var (
	PlatonovDatasets = paper.PlatonovDatasets
	PlatonovMethods  = append(slices.Clone(Table2Methods), "lwgcn-p", "lwgcn-g", "lwgcn-gcn")
)
