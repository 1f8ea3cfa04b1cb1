// Package results stores machine-readable experiment results: one JSON file
// per experiment (e.g. results/table2.json) holding one record per training
// run (dataset, model, split, seed, accuracies, timing, provenance). Files
// are rewritten atomically after every run (temp file, fsync, rename), so a
// killed experiment loses at most the run in progress and resumes by skipping
// the keys already present. docs/RESULTS.md and the notebooks are generated
// from these files.
package results
