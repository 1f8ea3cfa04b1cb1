package notebook

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestHelpers(t *testing.T) {
	if Must(3, nil) != 3 {
		t.Error("Must")
	}
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Error("Must did not panic on an error")
			}
		}()
		Must(0, errors.New("boom"))
	}()
	if a, b := Must2(1, "x", nil); a != 1 || b != "x" {
		t.Error("Must2")
	}
	t.Setenv("LWGCN_QUICK", "1")
	if IfQuick(1, 2) != 1 {
		t.Error("IfQuick in quick mode")
	}
	t.Setenv("LWGCN_QUICK", "")
	if IfQuick(1, 2) != 2 {
		t.Error("IfQuick in full mode")
	}
	if IfFull(true, 10, 3) != 10 || IfFull(false, 10, 3) != 3 {
		t.Error("IfFull")
	}
}

func TestState(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	type result struct {
		Name string
		Acc  []float64
	}
	SaveState("s.json", result{"texas", []float64{57.6, 86.2}})
	got := LoadState[result]("s.json")
	if got.Name != "texas" || len(got.Acc) != 2 || got.Acc[1] != 86.2 {
		t.Errorf("loaded %+v", got)
	}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "notebook: missing.json not found: run the cell that computes it first") {
			t.Errorf("missing state: recovered %v", r)
		}
	}()
	LoadState[result]("missing.json")
}
