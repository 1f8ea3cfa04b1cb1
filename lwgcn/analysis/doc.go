// Package analysis measures representations the way the LW-GCN paper's
// figures do, on the host and without GoMLX: cosine similarities of node
// pairs of the same and of different classes (Fig. 4, "representation
// similarity distributions"), and the similarity matrices of neighbours of
// one class linked to centres of different classes (the appendix figure that
// justifies assumption (ii), Fig. 1's analysis).
//
// Representations are *graph.Features (dense or sparse rows), so the same
// functions read raw node features and learned outputs:
//
//	x, _ := graph.NewDenseFeatures(n, c, logProbs) // e.g. a model's [N, C] output
//	pairs, _ := analysis.PairCosines(analysis.CenterRows(x), labels, analysis.PairOptions{})
//	sims, _ := analysis.NeighbourClassSimilarity(g, analysis.NeighbourOptions{})
//
// Rows of norm zero have no direction: they are left out of every cosine and
// counted (ZeroRows), never turned into NaN or 0.
package analysis
