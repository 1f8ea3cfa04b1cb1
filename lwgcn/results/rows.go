package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// readRows reads the JSON array of records in path and checks each with
// check; a missing file is an error unless missingOK (then no rows).
func readRows[T any](path string, missingOK bool, check func(r *T) error) ([]T, error) {
	data, err := os.ReadFile(path)
	if missingOK && errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return parseRows(path, data, check)
}

// parseRows decodes a JSON array of records and checks each with check,
// whose error is reported after the file (path) and the record's index
// ("results: FILE: record 3 has no dataset").
func parseRows[T any](path string, data []byte, check func(r *T) error) ([]T, error) {
	var rows []T
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("results: %s: %w", path, err)
	}
	for i := range rows {
		if err := check(&rows[i]); err != nil {
			return nil, fmt.Errorf("results: %s: record %d %w", path, i, err)
		}
	}
	return rows, nil
}
