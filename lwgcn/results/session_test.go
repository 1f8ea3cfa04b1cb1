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

// Merge: two files written by parallel invocations, both started from a
// copy that holds run "old" and session s0 (open when copied into b, so
// b's copy is shorter). The result has every run once (a re-run of "old"
// in b, recorded later, replaces it), every session once (s0 the longer
// copy), ordered by start, and is saved; an open session refuses.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, sessions []Session, runs ...Run) *File {
		t.Helper()
		f, err := Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f.sessions = sessions
		for _, r := range runs {
			if err := f.Put(r); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	run := func(key, date string, acc float64) Run {
		return Run{Key: key, TestAcc: acc, Provenance: Provenance{Date: date}}
	}
	s0 := Session{ID: "s0", Start: "2026-11-25T11:00:00.7Z", WallSecs: 100}
	s0early := s0
	s0early.WallSecs = 40
	sA := Session{ID: "sA", Start: "2026-11-25T12:00:00.745Z", WallSecs: 50}
	sB := Session{ID: "sB", Start: "2026-11-25T11:30:00Z", WallSecs: 60}
	sC := Session{ID: "sC", Start: "2026-11-25T12:00:00.7Z", WallSecs: 5} // before sA, though its text sorts after
	a := mk("a.json", []Session{s0, sA}, run("old", "2026-11-25T11:00:00Z", 0.5), run("x", "2026-11-25T12:01:00Z", 0.6))
	b := mk("b.json", []Session{s0early, sB, sC}, run("old", "2026-11-25T11:40:00Z", 0.7), run("y", "2026-11-25T11:41:00Z", 0.8))
	added, replaced, err := a.Merge(b)
	if err != nil || added != 1 || replaced != 1 {
		t.Fatalf("Merge: added %d, replaced %d, %v; want 1, 1", added, replaced, err)
	}
	g, err := Open(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range g.Runs() {
		got[r.Key] = r.TestAcc
	}
	if len(got) != 3 || got["old"] != 0.7 || got["x"] != 0.6 || got["y"] != 0.8 {
		t.Errorf("merged runs %v: want old 0.7 (the later), x 0.6, y 0.8", got)
	}
	var ids []string
	for _, s := range g.Sessions() {
		ids = append(ids, s.ID)
		if s.ID == "s0" && s.WallSecs != 100 {
			t.Errorf("session s0 kept with %v s, want the longer copy (100 s)", s.WallSecs)
		}
	}
	if strings.Join(ids, ",") != "s0,sB,sC,sA" {
		t.Errorf("sessions %v, want s0,sB,sC,sA (by start time)", ids)
	}
	if err := b.BeginSession(NewSession("reproduce", "table2", nil, nil, "go", "auto")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Merge(b); err == nil || !strings.Contains(err.Error(), "a session is open") {
		t.Errorf("merging a file with an open session: %v", err)
	}
}
