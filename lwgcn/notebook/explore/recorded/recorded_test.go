package recorded

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

func sweepRuns() []results.Run {
	var runs []results.Run
	for _, m := range []string{"mlp", "gcn"} {
		for _, d := range []float64{5, 10} {
			for _, h := range []float64{0.1, 0.5, 0.9} {
				for s := range 2 {
					runs = append(runs, results.Run{Experiment: "sweep", Dataset: "csbm", Model: m, Split: s,
						Params:  map[string]float64{"h": h, "degree": d, "realised_h": h, "realised_degree": d},
						TestAcc: 0.5 + h/4 + float64(s)/100})
				}
			}
		}
	}
	return runs
}

// at returns e's values with the named selects set to the given options.
func at(t *testing.T, e *notebook.Explorer, set map[string]string) notebook.Values {
	t.Helper()
	cs := append([]notebook.Control(nil), e.Controls...)
	for i := range cs {
		if want, ok := set[cs[i].Name]; ok {
			found := false
			for k, o := range cs[i].Options {
				if o == want {
					cs[i].Default, found = float64(k), true
				}
			}
			if !found {
				t.Fatalf("control %q has no option %q (%q)", cs[i].Name, want, cs[i].Options)
			}
		}
	}
	return notebook.DefaultValues(cs)
}

func TestSweepsSelectors(t *testing.T) {
	e, err := Sweeps(sweepRuns())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Controls[1].Options; strings.Join(got, ",") != "all,5,10" {
		t.Errorf("degree options %q", got)
	}
	if got := e.Controls[2].Options; strings.Join(got, ",") != "all,mlp,gcn" && strings.Join(got, ",") != "all,gcn,mlp" {
		t.Errorf("method options %q", got)
	}
	all, err := e.Draw(at(t, e, nil))
	if err != nil || all.Len() != 2 {
		t.Fatalf("default view: %v parts, %v", all, err)
	}
	one, err := e.Draw(at(t, e, map[string]string{"degree": "10", "method": "gcn"}))
	if err != nil {
		t.Fatal(err)
	}
	h := one.HTMLBlock()
	if h == all.HTMLBlock() {
		t.Error("selecting a degree and a method did not change the figures")
	}
	if _, err := Sweeps(nil); err == nil || !strings.Contains(err.Error(), "no sweep runs") {
		t.Errorf("no runs: %v", err)
	}
	// A combination without points is an error shown in place of the view.
	runs := sweepRuns()[:6] // mlp at d = 5 only
	e, _ = Sweeps(append(runs, results.Run{Dataset: "csbm", Model: "gcn", Params: map[string]float64{"h": 0.5, "degree": 10}}))
	if _, err := e.Draw(at(t, e, map[string]string{"degree": "10", "method": "mlp"})); err == nil ||
		err.Error() != "no recorded point on csbm with degree 10 and method mlp" {
		t.Errorf("empty selection: %v", err)
	}
}

func TestAblationSelectors(t *testing.T) {
	var runs []results.Run
	for _, m := range []string{"mlp", "lwgcn", "lwgcn-g"} {
		for s := range 3 {
			runs = append(runs, results.Run{Experiment: "table3", Dataset: "texas", Model: m, Split: s, Seed: int64(10 + s),
				TestAcc: 0.6 + float64(s)/10, ValAcc: 0.5, BestEpoch: 7})
		}
	}
	runs = append(runs, results.Run{Experiment: "table3", Dataset: "cora", Model: "mlp", TestAcc: 0.7})
	e, err := Ablation(runs)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.Controls[0].Options, ","); got != "cora,texas" {
		t.Errorf("datasets %q (Table 3 order, only those with runs)", got)
	}
	if got := e.Controls[1].Options; got[len(got)-1] != "lwgcn" || e.Controls[1].Default != float64(len(got)-1) {
		t.Errorf("variants %q, default %v: want LW-GCN last and chosen", got, e.Controls[1].Default)
	}
	v, err := e.Draw(at(t, e, map[string]string{"dataset": "texas", "variant": "lwgcn-g"}))
	if err != nil {
		t.Fatal(err)
	}
	h := v.HTMLBlock()
	// Three runs listed, test accuracies 60.0, 70.0, 80.0 with their seeds.
	for _, want := range []string{`LW-GCN\G on Texas`, ">60.0</td>", ">70.0</td>", ">80.0</td>", ">12</td>"} {
		if !strings.Contains(h, want) {
			t.Errorf("view lacks %q", want)
		}
	}
	v, err = e.Draw(at(t, e, map[string]string{"dataset": "cora", "variant": "lwgcn"}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.HTMLBlock(), "LW-GCN has no recorded runs on Cora.") {
		t.Error("missing variant not noted")
	}
}
