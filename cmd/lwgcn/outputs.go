package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// Output files. Every command checks the paths it will write before it
// starts its work (checkOutput: the error names the flag and the file, exit
// status 1), writes them atomically through symlinks keeping their mode
// (results.WriteFileAtomic), and never replaces a file it did not produce:
// an existing output must be of the command's own kind, and files that
// hold records of several invocations (results files, benchmark tables)
// are merged under a lock (results.Update), not overwritten.

// checkOutput checks the path of an output flag before any work; ours
// recognises the command's own files (nil: any). "" and "-" (stdout) pass.
// The error reads "-flag path ..." (results.CheckOutput's errors begin
// with the path); an environment variable is named as "NAME=".
func checkOutput(flagName, path string, ours func([]byte) error) error {
	if path == "" || path == "-" {
		return nil
	}
	return nameOutput(flagName, results.CheckOutput(path, ours))
}

// checkResultsOutput is checkOutput for a results file.
func checkResultsOutput(flagName, path string) error {
	return nameOutput(flagName, results.CheckFile(path))
}

func nameOutput(flagName string, err error) error {
	switch {
	case err == nil:
		return nil
	case strings.HasSuffix(flagName, "="):
		return fmt.Errorf("%s%w", flagName, err)
	}
	return fmt.Errorf("%s %w", flagName, err)
}

// jsonOf returns an ours function for checkOutput that accepts what read
// accepts (the reader of the command's own JSON file).
func jsonOf(what string, read func([]byte) error) func([]byte) error {
	return func(data []byte) error {
		if err := read(data); err != nil {
			return fmt.Errorf("is not %s (%v)", what, err)
		}
		return nil
	}
}

// startsWith returns an ours function for checkOutput accepting files that
// begin with prefix (the first line a command writes into its documents).
func startsWith(what, prefix string) func([]byte) error {
	return func(data []byte) error {
		if !bytes.HasPrefix(data, []byte(prefix)) {
			return fmt.Errorf("is not %s (it does not begin with %q)", what, prefix)
		}
		return nil
	}
}

// updateJSON writes the value merge returns to path under the file's lock
// (results.Update); merge gets the file's current content (nil when
// absent). "-" prints the value merged with nothing.
func updateJSON(path string, merge func(old []byte) (any, error)) error {
	if path == "-" {
		v, err := merge(nil)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(v)
	}
	err := results.Update(path, func(old []byte) ([]byte, error) {
		v, err := merge(old)
		if err != nil {
			return nil, err
		}
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}

// errNotOurs marks a file a merge refused to rewrite.
var errNotOurs = errors.New("not rewritten")
