package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A session counts the runs Put while it is open (a replaced key is not
// added), names itself in them, survives a reopen, and records the load
// average of LoadAvgPath at both ends.
func TestSessionCountsRuns(t *testing.T) {
	dir := t.TempDir()
	old := LoadAvgPath
	defer func() { LoadAvgPath = old }()
	LoadAvgPath = filepath.Join(dir, "loadavg")
	if err := os.WriteFile(LoadAvgPath, []byte("1.25 0.80 0.50 2/300 4242\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.json")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Put(Run{Key: "before"}); err != nil {
		t.Fatal(err)
	}
	s := NewSession("reproduce", "table2", []string{"texas"}, []string{"gcn"}, "go", "auto")
	if s.Load1Start == nil || *s.Load1Start != 1.25 || s.GOMAXPROCS < 1 {
		t.Fatalf("new session %+v: want load 1.25 and GOMAXPROCS", s)
	}
	if err := f.BeginSession(s); err != nil {
		t.Fatal(err)
	}
	if err := f.BeginSession(NewSession("x", "y", nil, nil, "go", "")); err == nil || !strings.Contains(err.Error(), "is open") {
		t.Errorf("second BeginSession: %v, want an error saying one is open", err)
	}
	for _, k := range []string{"a", "b", "before", "a"} {
		if err := f.Put(Run{Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(LoadAvgPath, []byte("3.5 1 1 1/1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.EndSession(errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	if err := f.EndSession(nil); err == nil {
		t.Error("EndSession without an open session: no error")
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ss := g.Sessions()
	if len(ss) != 1 {
		t.Fatalf("%d sessions, want 1", len(ss))
	}
	got := ss[0]
	// a and b are new; "before" and the second "a" replace recorded keys.
	if got.RunsAdded != 2 || got.Finished || got.Error != "boom" || got.Load1End == nil || *got.Load1End != 3.5 ||
		got.WallSecs <= 0 || got.Experiment != "table2" || got.Batch != "auto" {
		t.Errorf("session %+v", got)
	}
	for _, k := range []string{"a", "b", "before"} {
		if r, _ := g.Get(k); r.Session != got.ID {
			t.Errorf("run %s names session %q, want %q", k, r.Session, got.ID)
		}
	}
}

// A file written before sessions existed (no "sessions", no run
// "session") reads with none; an unreadable load average is left out.
func TestSessionOldFileAndNoLoadAvg(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.json")
	old := `{"version": 1, "runs": [{"key": "k", "dataset": "texas", "model": "gcn", "total_secs": 2.5,
		"provenance": {"commit": "c", "backend": "go", "date": "2026-01-01T00:00:00Z"}}]}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Sessions()) != 0 || f.Runs()[0].Session != "" || f.Runs()[0].TotalSecs != 2.5 {
		t.Errorf("old file: sessions %v, run %+v", f.Sessions(), f.Runs()[0])
	}
	saved := LoadAvgPath
	defer func() { LoadAvgPath = saved }()
	LoadAvgPath = filepath.Join(dir, "missing")
	if s := NewSession("sweep", "sweep", nil, nil, "go", ""); s.Load1Start != nil {
		t.Errorf("load average without %s: %v, want nil", LoadAvgPath, *s.Load1Start)
	}
	bad := `{"version": 1, "sessions": [{"id": "s"}, {"id": "s"}], "runs": []}`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), `repeated id "s"`) {
		t.Errorf("repeated session id: %v", err)
	}
}
