// Package paper holds the numbers the LW-GCN paper (Dai et al., LoG 2022)
// reports, so that results, tables and notebooks can put ours beside theirs:
// Table 2 (node classification, with the selection weight of f_C), Table 3
// (ablation), Table 4 (dataset statistics) and the appendix tables for Cornell
// and Citeseer. Values are transcribed from ../shared/paper/lwgcn-paper.tex;
// accuracies are percentages.
package paper
