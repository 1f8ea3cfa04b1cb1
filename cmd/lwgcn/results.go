package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/report"
)

func init() {
	register(command{name: "results", summary: "regenerate docs/RESULTS.md from the recorded results", run: runResults})
}

func runResults(args []string) error {
	fs := newFlagSet("results", "[flags]")
	dir := fs.String("dir", resultsDir(), "results directory")
	out := fs.String("out", "", "output file (default docs/RESULTS.md in the repository; - for stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := report.CheckResultsDir(*dir); err != nil {
		return fmt.Errorf("-dir %w", err)
	}
	path := *out
	if path == "" {
		root := buildinfo.SourceDir()
		if root == "" {
			return fmt.Errorf("not inside the repository: give -out")
		}
		path = filepath.Join(root, "docs", "RESULTS.md")
	}
	if path == "-" {
		doc, err := report.ResultsDoc(*dir)
		if err != nil {
			return err
		}
		fmt.Print(doc)
		return nil
	}
	// Only a document this command wrote is replaced.
	if err := checkOutput("-out", path, startsWith("a results document", report.ResultsDocHead)); err != nil {
		return err
	}
	if err := report.WriteResultsDoc(*dir, path); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}
