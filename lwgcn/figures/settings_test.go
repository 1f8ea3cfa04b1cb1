package figures

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/theory"
)

func TestContextMeans(t *testing.T) {
	// The documented C = 3 case, by hand: m = (2, 0, -2), shifts 0.5 and 1.
	want := [][]float64{{2, 0.5, -1}, {3, 0, -1.5}, {2.5, 1, -2}}
	got := ContextMeans(3, 2, 1)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("ContextMeans(3, 2, 1) = %v, want %v", got, want)
		}
	}
	// For any C every row has the same sum, so S = 0 for every pair, and
	// D = m_i - m_j.
	for _, c := range []int{2, 4, 5} {
		mu := ContextMeans(c, 1.5, 0.7)
		p, err := theory.NewParams(3, 0.5, mu, theory.ConstantMatrix(c, 1))
		if err != nil {
			t.Fatal(err)
		}
		for j := 1; j < c; j++ {
			gl, err := p.GCNGapLine(0, j)
			if err != nil {
				t.Fatal(err)
			}
			wantD := 1.5 * 2 * float64(j) / float64(c-1)
			if math.Abs(gl.S) > 1e-12 || math.Abs(gl.D-wantD) > 1e-12 {
				t.Errorf("C=%d pair (0,%d): S = %v, D = %v; want 0 and %v", c, j, gl.S, gl.D, wantD)
			}
		}
	}
	if ContextMeans(1, 1, 1) != nil {
		t.Error("ContextMeans(1, ...) should be nil")
	}
}

func TestShiftHeterophilic(t *testing.T) {
	mu := ContextMeans(4, 2, 1)
	shifted := ShiftHeterophilic(mu, 1, 0.25)
	if !slices.Equal(mu[1], ContextMeans(4, 2, 1)[1]) {
		t.Error("ShiftHeterophilic modified its input")
	}
	for k := range 4 {
		want := mu[1][k] + 0.25
		if k == 1 {
			want = mu[1][1]
		}
		if shifted[1][k] != want {
			t.Errorf("shifted[1][%d] = %v, want %v", k, shifted[1][k], want)
		}
	}
	p, _ := theory.NewParams(2, 0.5, shifted, theory.ConstantMatrix(4, 1))
	gl, _ := p.GCNGapLine(1, 2)
	if math.Abs(gl.S-3*0.25) > 1e-12 { // (C-1) shift
		t.Errorf("S = %v, want 0.75", gl.S)
	}
}

func TestGrids(t *testing.T) {
	if g := HomophilyGrid(4); !slices.Equal(g, []float64{0, 0.25, 0.5, 0.75, 1}) {
		t.Errorf("HomophilyGrid(4) = %v", g)
	}
	if g := HomophilyGrid(0); !slices.Equal(g, []float64{0, 1}) {
		t.Errorf("HomophilyGrid(0) = %v", g)
	}
	g := GridWith([]float64{0, 0.5, 1}, 0.2, math.NaN(), 0.5, 1.0/3)
	if !slices.Equal(g, []float64{0, 0.2, 1.0 / 3, 0.5, 1}) {
		t.Errorf("GridWith = %v", g)
	}
}

func TestMeansHeatmap(t *testing.T) {
	s, err := NewSetting("A", ContextMeans(3, 2, 1), theory.ConstantMatrix(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	svg := MeansHeatmap(s).SVG()
	checkSVG(t, "MeansHeatmap", svg, "A: μ_ik", "i = 2", "k = 0", ">2.5<", ">−1.5<")
	if strings.Count(svg, "<rect") < 9 {
		t.Errorf("MeansHeatmap: fewer than 9 cells")
	}
}
