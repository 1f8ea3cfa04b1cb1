// Package report renders docs/RESULTS.md from the recorded results
// (results/*.json) and builds the result tables it and the notebooks show:
// ours beside the paper's numbers (Summaries, Comparison), the sweeps,
// depths and grid, the speed and backend tables, and each table's
// time-to-table. Its sections are listed in one place, in the document's
// order (sections in report.go). It trains nothing: lwgcn/experiments
// records the runs it reads.
package report
