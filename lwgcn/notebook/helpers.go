package notebook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Must returns v, or panics with err: in a notebook cell the panic stops the
// cell and the headless runner reports it with the cell's index.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Must2 is Must for functions with two results and an error.
func Must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// IfQuick returns quick in quick mode (LWGCN_QUICK set, see Quick) and full
// otherwise: notebooks size their epochs, splits and sweeps with it.
func IfQuick[T any](quick, full T) T {
	if Quick() {
		return quick
	}
	return full
}

// SaveState writes v as JSON to the file name in the temporary directory
// (os.TempDir), so that later cells can read it with LoadState: every cell
// of a notebook runs as a new program, and only declarations survive from
// one cell to the next. It panics on an error (Must).
func SaveState(name string, v any) {
	data := Must(json.Marshal(v))
	path := filepath.Join(os.TempDir(), name)
	tmp := path + ".tmp"
	Must(0, os.WriteFile(tmp, data, 0o644))
	Must(0, os.Rename(tmp, path))
}

// LoadState reads what SaveState wrote under name. It panics, saying which
// cell to run first, when there is nothing yet.
func LoadState[T any](name string) T {
	var v T
	data, err := os.ReadFile(filepath.Join(os.TempDir(), name))
	if err != nil {
		panic(fmt.Errorf("notebook: %s not found: run the cell that computes it first (%w)", name, err))
	}
	if err := json.Unmarshal(data, &v); err != nil {
		panic(fmt.Errorf("notebook: reading %s: %w", name, err))
	}
	return v
}

// IfFull returns fullValue when full is set and demo otherwise: a notebook
// whose full run is long runs a smaller demonstration by default, with the
// full one a flag away, e.g. Splits = IfQuick(2, IfFull(Full, 10, 3)).
func IfFull[T any](full bool, fullValue, demo T) T {
	if full {
		return fullValue
	}
	return demo
}
