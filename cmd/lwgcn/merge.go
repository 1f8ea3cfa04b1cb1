package main

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

func init() {
	register(command{name: "merge", summary: "merge results files of parallel invocations into one (runs by key, sessions by id)", run: runMerge})
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
	if err := checkResultsOutput("-into", *into); err != nil {
		return err
	}
	dst, err := results.Open(*into)
	if err != nil {
		return err
	}
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); errors.Is(err, iofs.ErrNotExist) {
			return fmt.Errorf("merge: %s: no such file", p)
		}
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
