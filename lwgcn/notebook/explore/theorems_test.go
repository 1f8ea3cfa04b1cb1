package explore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/notebook"
)

// valuesAt sets an explorer's controls to the given values (others at their
// defaults) and returns its values, as the live loop would.
func valuesAt(t *testing.T, e *notebook.Explorer, set map[string]float64) notebook.Values {
	t.Helper()
	cs := append([]notebook.Control(nil), e.Controls...)
	for i := range cs {
		if v, ok := set[cs[i].Name]; ok {
			cs[i].Default = v
			delete(set, cs[i].Name)
		}
	}
	if len(set) > 0 {
		t.Fatalf("no controls %v", set)
	}
	return notebook.DefaultValues(cs)
}

func TestTheorem1ViewFollowsSliders(t *testing.T) {
	e := Theorem1()
	base := valuesAt(t, e, nil)
	v0, err := e.Draw(base)
	if err != nil {
		t.Fatal(err)
	}
	if v0.Len() != 3 {
		t.Fatalf("%d parts, want ratio figure, gap figure, table", v0.Len())
	}
	// The table's h* for setting B is (D-S)/(CD-S) with D = 4, S = (C-1) tilt = 1 at the defaults: 0.2.
	html0 := v0.HTMLBlock()
	if !strings.Contains(html0, ">0.200</td>") {
		t.Errorf("h* = 0.2 of setting B not in the table: %s", tableOf(html0))
	}
	// Setting A at h = 0.35, d = 5, C = 3: Var(z|i) by hand. Row 0 of
	// ContextMeans(3, 2, 1) is (2, 0.5, -1), p = (0.35, 0.325, 0.325), sigma 1:
	// (sum_k p_k (1 + mu_k^2) - (sum_k p_k mu_k)^2) / 5.
	m := 0.35*2 + 0.325*0.5 + 0.325*(-1)
	second := 0.35*(1+4) + 0.325*(1+0.25) + 0.325*(1+1)
	if want := fmt.Sprintf(">%.3f</td>", (second-m*m)/5); !strings.Contains(html0, want) {
		t.Errorf("Var(z|i) of setting A: %s not in %s", want, tableOf(html0))
	}
	v1, err := e.Draw(valuesAt(t, e, map[string]float64{"d": 20}))
	if err != nil {
		t.Fatal(err)
	}
	if v1.HTMLBlock() == html0 {
		t.Error("moving d did not change the view")
	}
	v2, err := e.Draw(valuesAt(t, e, map[string]float64{"tilt": 0}))
	if err != nil {
		t.Fatal(err)
	}
	// Tilt 0 makes B equal to A: both rows have h* = 1/C.
	if n := strings.Count(v2.HTMLBlock(), ">0.333</td>"); n != 2 {
		t.Errorf("tilt 0: %d cells with h* = 0.333, want 2: %s", n, tableOf(v2.HTMLBlock()))
	}
}

func TestTheorem2ViewFollowsSliders(t *testing.T) {
	e := Theorem2()
	v0, err := e.Draw(valuesAt(t, e, nil))
	if err != nil {
		t.Fatal(err)
	}
	if v0.Len() != 4 {
		t.Fatalf("%d parts, want 2 figures and 2 tables", v0.Len())
	}
	v1, err := e.Draw(valuesAt(t, e, map[string]float64{"C": 5}))
	if err != nil {
		t.Fatal(err)
	}
	h := v1.HTMLBlock()
	if !strings.Contains(h, "a_4") || strings.Contains(v0.HTMLBlock(), "a_4") {
		t.Error("C = 5 should show blocks a_0..a_4, C = 3 only a_0..a_2")
	}
}

func tableOf(h string) string {
	if i := strings.Index(h, "<table"); i >= 0 {
		return h[i:]
	}
	return h
}
