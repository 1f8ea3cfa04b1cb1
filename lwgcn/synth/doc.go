// Package synth generates graphs with a controlled homophily ratio and
// average degree for the LW-GCN experiments.
//
//   - ResampleHomophily is the paper's Algorithm 2 (Appendix "Process of Graph
//     Generation"): it keeps a base graph's nodes, features, labels and splits
//     and re-samples its edges to hit a target edge homophily h and average
//     degree d exactly up to rounding, adding random intra- or inter-class
//     pairs when the base has too few of either kind.
//   - GenerateCSBM is a contextual stochastic block model whose heterophilic
//     edges follow a class-pair pattern and whose node features depend on the
//     class a node preferentially links to, so the label-wise context of the
//     paper's Theorem 2 carries information.
//   - RandomSplits draws seeded train/validation/test splits (48/32/20 like
//     Geom-GCN by default).
//
// Conventions: the average degree d is the number of directed edges per node
// of the symmetric output, 2*(undirected edges)/N, i.e. graph.AverageDegree
// of the returned graph; the homophily ratio is the edge homophily (fraction
// of edges joining nodes of the same class). Every generator takes an
// explicit *rand.Rand (math/rand/v2) so runs are reproducible, and returns
// the statistics it actually realised.
package synth
