package notebook

import (
	"errors"
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
}
