// Package experiments runs the paper's experiments and records them: the
// node-classification table (Table 2) with LW-GCN and the baselines, the
// ablation study (Table 3), the hyperparameter grid search, and renders the
// tables (ours beside the paper's numbers) and docs/RESULTS.md from the
// recorded results.
//
// Every experiment writes one results file (lwgcn/results) after each
// training run, keyed by experiment, dataset, method, split, seed and a hash
// of the configuration: a killed experiment resumes where it stopped, and a
// changed configuration is a new key, never silently mixed with old runs.
//
// Protocol (the paper's): the 10 Geom-GCN splits with seed 15 for WebKB and
// Wikipedia graphs (and the 10 masks of the filtered graphs); the public
// Planetoid split with seeds 10, 11 and 12; the 5 fixed splits of
// arxiv-year. Hyperparameters come from labelwise.Defaults and the zoo entries,
// chosen on validation accuracy only (see Grid).
package experiments
