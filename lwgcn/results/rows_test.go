package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRows(t *testing.T) {
	dir := t.TempDir()
	type rec struct{ Name string }
	check := func(r *rec) error {
		if r.Name == "" {
			return errors.New("has no name")
		}
		r.Name = strings.ToUpper(r.Name)
		return nil
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	missing := filepath.Join(dir, "missing.json")
	if rows, err := readRows(missing, true, check); err != nil || rows != nil {
		t.Errorf("missing file allowed: %v, %v; want no rows, no error", rows, err)
	}
	if _, err := readRows(missing, false, check); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file required: error %v, want one naming the file", err)
	}
	rows, err := readRows(write("ok.json", `[{"Name": "a"}, {"Name": "b"}]`), false, check)
	if err != nil || len(rows) != 2 || rows[0].Name != "A" || rows[1].Name != "B" {
		t.Errorf("ok.json: %v, %v; want [A B] (check sees each record and may change it)", rows, err)
	}
	bad := write("bad.json", `[{"Name": "a"}, {"Name": ""}]`)
	if _, err := readRows(bad, false, check); err == nil || err.Error() != "results: "+bad+": record 1 has no name" {
		t.Errorf("bad.json: error %v, want the file, the record and the check's reason", err)
	}
	if _, err := readRows(write("syntax.json", `[{"Name": "a"`), false, check); err == nil || !strings.Contains(err.Error(), "syntax.json") {
		t.Errorf("syntax.json: error %v, want one naming the file", err)
	}
}
