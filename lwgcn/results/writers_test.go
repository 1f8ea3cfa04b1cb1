package results

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func testRun(key string) Run {
	return Run{Key: key, Experiment: "t", Dataset: "texas", Model: "gcn", Provenance: NewProvenance("go")}
}

// Two File values on one path (two processes' view) each Put their own
// runs, interleaved: every run of both ends up in the file, and each
// sees the other's runs after its next save.
func TestTwoWritersMerge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.BeginSession(NewSession("reproduce", "t", nil, nil, "go", "1")); err != nil {
		t.Fatal(err)
	}
	sb := NewSession("reproduce", "t", nil, nil, "go", "1")
	sb.ID += "-b"
	if err := b.BeginSession(sb); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := a.Put(testRun(fmt.Sprintf("a%d", i))); err != nil {
			t.Fatal(err)
		}
		if err := b.Put(testRun(fmt.Sprintf("b%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.EndSession(nil); err != nil {
		t.Fatal(err)
	}
	if err := b.EndSession(nil); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs()) != 10 || len(f.Sessions()) != 2 {
		t.Fatalf("file holds %d runs and %d sessions, want 10 and 2", len(f.Runs()), len(f.Sessions()))
	}
	for _, s := range f.Sessions() {
		if !s.Finished || s.RunsAdded != 5 {
			t.Errorf("session %s: finished %v, %d runs added; want finished, 5", s.ID, s.Finished, s.RunsAdded)
		}
	}
	if !a.Has("b4") || !b.Has("a4") {
		t.Error("a writer does not see the other's runs after saving")
	}
}

// Writers in goroutines (each Open is its own file descriptor, as in two
// processes): the directory lock serialises the read-merge-write.
func TestConcurrentWritersKeepEveryRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	const writers, runs = 4, 15
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := Open(path)
			if err != nil {
				errs[w] = err
				return
			}
			for i := range runs {
				if err := f.Put(testRun(fmt.Sprintf("w%d-%d", w, i))); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs()) != writers*runs {
		t.Fatalf("%d runs kept of %d", len(f.Runs()), writers*runs)
	}
}

// A run that another writer replaced on disk is not put back by a writer
// that only read it; a run this writer replaced wins.
func TestMergeKeepsOtherWritersReplacement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	a, _ := Open(path)
	if err := a.Put(testRun("x")); err != nil {
		t.Fatal(err)
	}
	b, _ := Open(path)
	r := testRun("x")
	r.TestAcc = 0.5
	if err := b.Put(r); err != nil {
		t.Fatal(err)
	}
	if err := a.Put(testRun("y")); err != nil {
		t.Fatal(err)
	}
	f, _ := Open(path)
	if got, _ := f.Get("x"); got.TestAcc != 0.5 || len(f.Runs()) != 2 {
		t.Errorf("x test acc %v (want b's 0.5), %d runs", got.TestAcc, len(f.Runs()))
	}
}

// A corrupt file is never replaced: Put fails naming it and leaves its bytes.
func TestSaveRefusesCorruptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	f, _ := Open(path)
	junk := []byte("{\"version\": 1, \"runs\": [") // truncated by hand after Open
	if err := os.WriteFile(path, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	err := f.Put(testRun("x"))
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Put over a corrupt file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(junk) {
		t.Errorf("the corrupt file was rewritten: %q", got)
	}
}

// Saving through a symlink writes the link's target, keeps the link and the
// target's mode, as an editor would.
func TestSaveThroughSymlinkKeepsMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "table.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(`{"version": 1, "runs": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join("real", "table.json"), link); err != nil {
		t.Fatal(err)
	}
	f, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Put(testRun("x")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", st.Mode(), err)
	}
	st, err := os.Stat(real)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("target mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	g, err := Open(real)
	if err != nil || !g.Has("x") {
		t.Fatalf("the target does not hold the run: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(real))
	if len(entries) != 1 {
		t.Errorf("%d entries beside the target, want 1 (no temp or lock files)", len(entries))
	}
}

func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.json")
	f, _ := Open(results)
	if err := f.Put(testRun("x")); err != nil {
		t.Fatal(err)
	}
	notOurs := filepath.Join(dir, "notes.txt")
	os.WriteFile(notOurs, []byte("my notes\n"), 0o644)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "new.json"), ""},
		{filepath.Join(dir, "sub", "new.json"), ""}, // parent created on write
		{results, ""},
		{dir, "is a directory"},
		{notOurs, "not a results file"},
		{filepath.Join(file, "x.json"), "not a directory"},
	} {
		err := CheckFile(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckFile(%s): %v", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path)):
			t.Errorf("CheckFile(%s) = %v, want an error naming it with %q", c.path, err, c.want)
		}
	}
	if got, _ := os.ReadFile(notOurs); string(got) != "my notes\n" {
		t.Error("CheckFile changed the file")
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); err == nil {
		t.Error("CheckFile created a directory")
	}
}
