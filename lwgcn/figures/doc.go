// Package figures builds the figures and tables of lwgcn's notebooks from the
// analysis packages, so that a notebook cell is one call that computes and
// one that displays. Everything returned is a plot.Figure or a *plot.Table
// (self-contained SVG and HTML, no JavaScript), ready for notebook.Plot and
// notebook.Table; nothing here depends on GoMLX or on the notebook kernel.
//
// Files are organised by topic:
//
//   - sweep.go: shared pieces (Setting, SweepOptions, Progress, grids);
//   - settings.go: the theorem notebooks' mean matrices (ContextMeans,
//     ShiftHeterophilic) and their heatmap;
//   - theorem1.go: Theorem 1, GCN mean aggregation against the homophily
//     ratio h (SweepGCN, the gap line Delta(h), the uniform-mixing point
//     h = 1/C), for notebooks/02-theorem1.ipynb;
//   - theorem2.go: Theorem 2, label-wise aggregation (SweepLabelWise,
//     per-class moments, the paper's variance approximation, the bound and
//     its condition), for notebooks/03-theorem2.ipynb;
//   - probe.go: the empirical discriminability probe (theory.Discriminability)
//     over graphs of different homophily;
//   - tables.go: dataset statistics and homophily (GraphStatsTable), the class
//     compatibility matrix, per-split tables and bars, per-epoch curves, the
//     refinement and speed tables and provenance lines, for notebooks 01, 05
//     and 07;
//   - homophilysweep.go: accuracy against homophily from sweep runs
//     (SweepPoints, SweepFigure), Algorithm 2's realised against target values,
//     and accuracy against depth (DepthFigure), for notebooks 04, 06 and 07;
//   - representations.go: Fig. 4's similarity histograms and the neighbour
//     similarity matrices of lwgcn/analysis (NeighbourSimilarityFigure), with
//     Row, which sets figures side by side in one SVG, for notebook 06.
//
// Conventions: "ratio" is the one-dimensional Fisher ratio of package theory,
// Delta^2/((Var_i+Var_j)/2) (pooled), unless a name says RatioI, the paper's
// Delta^2/Var_i. The numbers come from package theory (the sweeps call
// theory.GCNCurve and theory.LabelWiseCurve, closed form and Monte Carlo);
// this package only arranges and draws them. Monte Carlo markers carry error
// bars of ErrorBarSE standard errors. Builders never panic on the data they are given: invalid options
// give an error, undefined points (NaN, +Inf) are left out of the figures.
package figures
