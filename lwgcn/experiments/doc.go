// Package experiments runs the paper's experiments and records them: the
// node-classification table (Table 2) with LW-GCN and the baselines, the
// ablation study (Table 3), the hyperparameter grid search, the depth study
// and the homophily sweeps, every method built through one Method
// interface. lwgcn/report renders the tables and docs/RESULTS.md from what
// it records.
//
// Every experiment writes one results file (lwgcn/results) after each
// training run, keyed by experiment, dataset, method, split, seed and a hash
// of the configuration: a killed experiment resumes where it stopped, and a
// changed configuration is a new key, never silently mixed with old runs.
// Each invocation is one session in the file (results.Session); the tables
// rendered by `lwgcn results` (lwgcn/report) say under them how long they
// took (the wall time of the sessions behind their runs) and whether every
// cell is complete.
//
// The runs still missing in a cell (one method on one dataset, or one sweep
// point) train together in one computation (the runs axis of package
// train) when the batch mode asks for it (Spec.Batch: BatchAuto batches the
// methods whose zoo entry was measured faster batched, zoo.Entry.AutoBatch,
// and LW-GCN with its variants on a GPU; BatchAlone none; N every method, N runs per computation). A sweep trains MLP,
// which never reads the edges, once per split and degree. LW-GCN's
// pseudo-labeller f_P (an MLP too) is trained once per (split, seed) in an
// invocation and its pseudo-labels shared (labelwise.PseudoCache): by every
// point of a sweep, the ablations and the depths of a dataset.
//
// Protocol (the paper's): the 10 Geom-GCN splits with seed 15 for WebKB and
// Wikipedia graphs (and the 10 masks of the filtered graphs and of
// Platonov et al.'s graphs); the public Planetoid split with seeds 10, 11
// and 12; the 5 fixed splits of arxiv-year. Hyperparameters come from
// labelwise.Defaults and the zoo entries, chosen on validation only (see
// Grid). On the two-class graphs of Platonov et al. (ROCAUCDataset) every
// method reports the test ROC-AUC of its epoch of best validation ROC-AUC,
// as their protocol does; `lwgcn reproduce platonov` runs them, reusing
// Table 2's runs on the filtered graphs (Spec.Reuse).
package experiments
