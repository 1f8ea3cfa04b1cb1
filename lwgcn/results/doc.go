// Package results stores machine-readable experiment results: one JSON file
// per experiment (e.g. results/table2.json) holding one record per training
// run (dataset, model, split, seed, accuracies, timing, provenance). Files
// are rewritten atomically after every run (temp file, fsync, rename), so a
// killed experiment loses at most the run in progress and resumes by skipping
// the keys already present. Each rewrite merges with the file on disk under
// an OS lock (File.Save, Update), so processes writing one file at once keep
// every run, and a file that is not a results file is never replaced. Each invocation that writes a file records a
// Session in it (what was asked, wall time, runs added, load average), and
// its runs name it: a table's time-to-table is the wall time of the sessions
// behind its runs. A run also says whether it was trained in a batch of
// runs (BatchRuns). docs/RESULTS.md and the notebooks are generated from
// these files.
package results
