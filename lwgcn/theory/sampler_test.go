package theory

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSampleConsistency(t *testing.T) {
	p := premisesExample(t, 7)
	rng := rand.New(rand.NewPCG(7, 8))
	dr, err := p.Sample(0, 500, rng)
	if err != nil {
		t.Fatal(err)
	}
	for v := range dr.Z {
		var n int32
		var sum float64
		for k := range dr.A {
			n += dr.Counts[k][v]
			sum += float64(dr.Counts[k][v]) * dr.A[k][v]
			if dr.Counts[k][v] == 0 && dr.A[k][v] != 0 {
				t.Fatalf("centre %d: class %d has no neighbour but a = %v", v, k, dr.A[k][v])
			}
		}
		if n != 7 {
			t.Fatalf("centre %d has %d neighbours, want 7", v, n)
		}
		// The GCN mean is the count-weighted mean of the label-wise means.
		if !near(dr.Z[v], sum/7, 1e-12) {
			t.Fatalf("centre %d: z = %v, counts-weighted a = %v", v, dr.Z[v], sum/7)
		}
	}
	if _, err := p.Sample(0, 10, nil); err == nil {
		t.Error("nil rng accepted")
	}
	if _, err := p.Sample(5, 10, rng); err == nil {
		t.Error("class 5 accepted")
	}
}

func TestMomentsStandardErrors(t *testing.T) {
	// For N(0,1): SE(mean) = 1/sqrt(n), SE(var) = sqrt(2/n).
	rng := rand.New(rand.NewPCG(9, 10))
	x := make([]float64, 40000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	m := Moments(x)
	n := float64(len(x))
	if !near(m.Mean.SE, 1/math.Sqrt(n), 0.02/math.Sqrt(n)) || !near(m.Var.SE, math.Sqrt(2/n), 0.05*math.Sqrt(2/n)) {
		t.Errorf("standard errors %v %v", m.Mean.SE, m.Var.SE)
	}
	if !m.Mean.Within(0, 4) || !m.Var.Within(1, 4) {
		t.Errorf("moments %v %v", m.Mean, m.Var)
	}
}

// Closed forms against Monte Carlo within 4 standard errors, including small
// d*h where the label-wise approximation is poor.
func TestClosedFormMatchesMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		c, d int
		h    float64
	}{{2, 1, 0.9}, {3, 2, 0.1}, {3, 5, 0.33}, {4, 3, 0.05}, {5, 10, 0.3}, {4, 20, 0}, {2, 8, 1}}
	const m = 20000
	for _, cs := range cases {
		p := randomParams(rng, cs.c, cs.d).WithH(cs.h)
		mc, err := p.MonteCarlo(0, 1, m, rng)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := p.GCN(0, 1)
		check := func(what string, e Estimate, want float64) {
			t.Helper()
			if !e.Within(want, 4) {
				t.Errorf("C=%d d=%d h=%v %s: Monte Carlo %v, closed form %v (%.1f SE)",
					cs.c, cs.d, cs.h, what, e, want, (e.Value-want)/e.SE)
			}
		}
		check("GCN mean i", mc.GCN.MeanI, g.MeanI)
		check("GCN mean j", mc.GCN.MeanJ, g.MeanJ)
		check("GCN var i", mc.GCN.VarI, g.VarI)
		check("GCN var j", mc.GCN.VarJ, g.VarJ)
		check("GCN gap", mc.GCN.Gap, g.Gap)
		check("GCN ratio", mc.GCN.Ratio, g.Ratio)
		lw, _ := p.LabelWise(0, 1)
		for k, st := range lw.PerClass {
			e := mc.LabelWise[k]
			check("label-wise mean i", e.MeanI, st.MomentsI.Mean)
			check("label-wise mean j", e.MeanJ, st.MomentsJ.Mean)
			if st.MomentsI.Var > 0 {
				check("label-wise var i", e.VarI, st.MomentsI.Var)
			}
			if st.MomentsJ.Var > 0 {
				check("label-wise var j", e.VarJ, st.MomentsJ.Var)
			}
			if st.MomentsI.Var > 0 && st.MomentsJ.Var > 0 {
				check("label-wise ratio", e.Ratio, st.Ratio)
			}
		}
	}
}

func TestCurves(t *testing.T) {
	p := premisesExample(t, 5)
	hs := []float64{0, 0.5, 1}
	pts, err := GCNCurve(p, 0, 1, []int{2, 10}, hs, &MonteCarloOptions{Samples: 5000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 6 {
		t.Fatalf("%d points, want 6", len(pts))
	}
	for n, pt := range pts {
		want, _ := p.WithDegree([]int{2, 10}[n/3]).WithH(hs[n%3]).GCN(0, 1)
		if pt.GCNStats != want {
			t.Errorf("point %d: %+v, want %+v", n, pt.GCNStats, want)
		}
		if pt.MC == nil || !pt.MC.Ratio.Within(want.Ratio, 4) {
			t.Errorf("point %d: Monte Carlo %+v vs ratio %v", n, pt.MC, want.Ratio)
		}
	}
	// Same seed, same curve.
	again, _ := GCNCurve(p, 0, 1, []int{2, 10}, hs, &MonteCarloOptions{Samples: 5000, Seed: 1})
	if *again[4].MC != *pts[4].MC {
		t.Error("Monte Carlo curve not reproducible")
	}
	lw, err := LabelWiseCurve(p, 0, 1, nil, hs, nil)
	if err != nil || len(lw) != 3 || lw[1].Degree != 5 || lw[1].MC != nil {
		t.Fatalf("label-wise curve %v %v", err, lw)
	}
	if _, err := GCNCurve(p, 0, 1, nil, []float64{2}, nil); err == nil {
		t.Error("h = 2 accepted")
	}
}

// TestCurveOptions: a Rand shared by two curves continues one stream (two
// single-degree curves equal one two-degree curve), Progress sees every
// Monte Carlo point in order, and a label-wise curve's Monte Carlo holds the
// GCN estimates of the same draws (equal to GCNCurve's with the same seed).
func TestCurveOptions(t *testing.T) {
	p := premisesExample(t, 5)
	hs := []float64{0.2, 0.7}
	both, err := GCNCurve(p, 0, 1, []int{2, 6}, hs, &MonteCarloOptions{Samples: 50, Rand: rand.New(rand.NewPCG(4, 5))})
	if err != nil {
		t.Fatal(err)
	}
	shared := rand.New(rand.NewPCG(4, 5))
	var seen []string
	opts := &MonteCarloOptions{Samples: 50, Seed: 99, Rand: shared, // Seed ignored when Rand is set
		Progress: func(d int, h float64) { seen = append(seen, fmt.Sprintf("%d/%v", d, h)) }}
	first, err := GCNCurve(p, 0, 1, []int{2}, hs, opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := GCNCurve(p, 0, 1, []int{6}, hs, opts)
	if err != nil {
		t.Fatal(err)
	}
	for n, pt := range append(first, second...) {
		if *pt.MC != *both[n].MC {
			t.Errorf("point %d: %+v from the shared stream, %+v in one curve", n, *pt.MC, *both[n].MC)
		}
	}
	if got := strings.Join(seen, " "); got != "2/0.2 2/0.7 6/0.2 6/0.7" {
		t.Errorf("progress saw %q", got)
	}
	gcn, err := GCNCurve(p, 0, 1, nil, hs, &MonteCarloOptions{Samples: 50, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	lw, err := LabelWiseCurve(p, 0, 1, nil, hs, &MonteCarloOptions{Samples: 50, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	for n := range hs {
		if lw[n].MC == nil || lw[n].MC.GCN != *gcn[n].MC || len(lw[n].MC.LabelWise) != p.NumClasses() {
			t.Errorf("h=%v: label-wise Monte Carlo %+v, GCN curve's %+v", hs[n], lw[n].MC, gcn[n].MC)
		}
	}
}
