package main

import (
	"bytes"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

func init() {
	register(command{name: "merge", summary: "merge results files of parallel invocations into one (runs by key, sessions by id; `lwgcn bench -backends` rows by dataset, case, backend and threads)", run: runMerge})
}

// runMerge joins the results files of invocations run in parallel, each
// with its own -results file, into the table's file (processes sharing one
// file merge on every save instead).
func runMerge(args []string) error {
	fs := newFlagSet("merge", "-into FILE FILE...")
	into := fs.String("into", "", "results file to merge into (created if absent), e.g. results/table2.json")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *into == "" || fs.NArg() == 0 {
		return usageErrorf("merge: want -into FILE and at least one file to merge")
	}
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); errors.Is(err, iofs.ErrNotExist) {
			return fmt.Errorf("merge: %s: no such file", p)
		}
	}
	if rows, err := isBenchRows(fs.Arg(0)); err != nil {
		return err
	} else if rows {
		return mergeBenchRows(*into, fs.Args())
	}
	if err := checkResultsOutput("-into", *into); err != nil {
		return err
	}
	dst, err := results.Open(*into)
	if err != nil {
		return err
	}
	for _, p := range fs.Args() {
		src, err := results.Open(p)
		if err != nil {
			return err
		}
		added, replaced, err := dst.Merge(src)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %d runs added, %d replaced by later records (now %d runs, %d sessions)\n", p, added, replaced,
			len(dst.Runs()), len(dst.Sessions()))
	}
	return nil
}

// isBenchRows reports whether path holds `lwgcn bench -backends` rows (a
// JSON array) rather than a results file of runs (an object).
func isBenchRows(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("merge: %w", err)
	}
	data = bytes.TrimSpace(data)
	return len(data) > 0 && data[0] == '[', nil
}

// mergeBenchRows merges the rows of `lwgcn bench -backends` files (the
// pieces of one measurement, e.g. from several calls on a lent GPU) into
// into, as bench does row by row: a later row replaces one of the same
// dataset, case, backend and threads.
func mergeBenchRows(into string, paths []string) error {
	if _, err := os.Stat(into); err == nil {
		if rows, err := isBenchRows(into); err != nil {
			return err
		} else if !rows {
			return fmt.Errorf("merge: %s holds bench rows, -into %s does not: merge runs with runs, rows with rows", paths[0], into)
		}
	}
	for _, p := range paths {
		rows, err := results.ReadBackendBench(p)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := saveBackendRows(into, rows); err != nil {
			return fmt.Errorf("merge: %s: %w", into, err)
		}
		fmt.Printf("%s: %d bench rows merged into %s\n", p, len(rows), into)
	}
	return nil
}
