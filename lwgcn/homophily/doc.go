// Package homophily measures how much a graph's edges join nodes of the same
// class: edge homophily (the LW-GCN paper's Definition 1), node homophily
// (Pei et al. 2020), class-insensitive homophily (Lim et al. 2021), adjusted
// homophily and label informativeness (Platonov et al. 2023), and the class
// compatibility matrix.
//
// Every measure reads the edge list as stored. Edge e joins the neighbour
// Src[e] to the centre Dst[e] (the direction messages flow); on a symmetric
// edge list (graph.ToUndirected) the direction does not matter, and that is
// how the literature's tables are computed. Edges with an unlabeled endpoint
// are ignored.
//
// Degenerate inputs never produce a silent NaN: a measure that is undefined
// (no labeled edge, one class, ...) returns an error saying why, and the corner
// cases other libraries turn into NaN (a class whose nodes have no edges) get
// the documented value below.
package homophily
