package synth

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/homophily"
)

func TestCSBMTargetsAndStructure(t *testing.T) {
	for _, tc := range []struct {
		h, d float64
	}{{0, 4}, {0.2, 10}, {0.5, 7.3}, {0.9, 20}} {
		cfg := DefaultCSBMConfig()
		cfg.Homophily, cfg.AverageDegree = tc.h, tc.d
		res, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		g := res.Graph
		n := cfg.NumNodes
		m := int(math.Round(tc.d * float64(n) / 2))
		if g.NumEdges() != 2*m || g.NumUndirectedEdges() != m || g.NumSelfLoops() != 0 || !g.IsSymmetric() {
			t.Fatalf("h=%v d=%v: %d edges, %d pairs, want %d pairs in both directions", tc.h, tc.d,
				g.NumEdges(), g.NumUndirectedEdges(), m)
		}
		h, _ := homophily.EdgeHomophily(g)
		if math.Abs(h-tc.h) > 0.5/float64(m) || h != res.Realised.H {
			t.Errorf("h=%v d=%v: realised h %v (reported %v)", tc.h, tc.d, h, res.Realised.H)
		}
		if math.Abs(g.AverageDegree()-tc.d) > 1/float64(n) {
			t.Errorf("h=%v d=%v: average degree %v", tc.h, tc.d, g.AverageDegree())
		}
		if !slices.Equal(g.ClassCounts(), []int{600, 600, 600, 600, 600}) {
			t.Errorf("class counts %v", g.ClassCounts())
		}
		if len(g.Splits()) != 10 || len(g.Splits()[0].Train) != 1440 || len(g.Splits()[0].Test) != 600 {
			t.Errorf("splits %d, first %v", len(g.Splits()), g.Splits()[0])
		}
		// Realised compatibility against the independent expectation: every
		// class has d*600 neighbour slots (>= 2,400), so 0.03 is > 4 SE.
		for i := range 5 {
			for k := range 5 {
				if got, want := res.Compatibility[i][k], res.ExpectedCompatibility[i][k]; math.Abs(got-want) > 0.03 {
					t.Errorf("h=%v d=%v: compatibility[%d][%d] = %v, expected %v", tc.h, tc.d, i, k, got, want)
				}
			}
		}
		// Ring structure: with balanced classes the diagonal is h and each
		// class sends (1+3)/(2*4+2*1) = 0.4 of its heterophilic edges to each
		// ring neighbour and 0.1 to each other class.
		for i := range 5 {
			e := res.ExpectedCompatibility[i]
			if !near(e[i], tc.h, 1e-3) || !near(e[(i+1)%5], 0.4*(1-tc.h), 1e-3) || !near(e[(i+2)%5], 0.1*(1-tc.h), 1e-3) {
				t.Errorf("expected compatibility row %d = %v", i, e)
			}
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// With uniform weights and balanced classes the neighbour classes follow
// the paper's assumption (i): h on the diagonal, (1-h)/(C-1) elsewhere.
func TestCSBMUniformIsPaperAssumption(t *testing.T) {
	cfg := DefaultCSBMConfig()
	cfg.HeterophilyWeights = nil
	cfg.NumClasses, cfg.Homophily, cfg.AverageDegree = 4, 0.3, 12
	res, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		for k := range 4 {
			want := 0.7 / 3
			if k == i {
				want = 0.3
			}
			if !near(res.Compatibility[i][k], want, 0.025) || !near(res.ExpectedCompatibility[i][k], want, 1e-3) {
				t.Errorf("compatibility[%d][%d] = %v (expected %v), want %v", i, k, res.Compatibility[i][k],
					res.ExpectedCompatibility[i][k], want)
			}
		}
	}
}

// The context makes assumption (ii) hold: class-k neighbours of class-i
// nodes have a mean feature near mu_k + g_{k,i}, which differs between
// centre classes; without context it is mu_k for every centre.
func TestCSBMContextFeatures(t *testing.T) {
	for _, ctx := range []float64{0, 2} {
		cfg := DefaultCSBMConfig()
		cfg.ContextSeparation, cfg.ContextFidelity = ctx, 1
		cfg.NumFeatures = 16
		res, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		g := res.Graph
		f, labels := g.Features(), g.Labels()
		c, nf := 5, 16
		sum := make([][][]float64, c)
		cnt := make([][]float64, c)
		for i := range c {
			sum[i] = make([][]float64, c)
			cnt[i] = make([]float64, c)
			for k := range c {
				sum[i][k] = make([]float64, nf)
			}
		}
		for e, u := range g.Src() {
			v := g.Dst()[e]
			i, k := labels[v], labels[u] // centre v, neighbour u
			cnt[i][k]++
			for t, x := range f.DenseRow(int(u)) {
				sum[i][k][t] += float64(x)
			}
		}
		// Check the ring pairs (i, k = i+1) and centres i vs j = k+1 (also a
		// ring neighbour of k).
		for i := range c {
			k, j := (i+1)%c, (i+2)%c
			dist := func(centre, target int) float64 {
				var d2 float64
				for t := range nf {
					want := res.ClassMeans[k][t]
					if target >= 0 {
						want += res.ContextShifts[k][target][t]
					}
					diff := sum[centre][k][t]/cnt[centre][k] - want
					d2 += diff * diff
				}
				return math.Sqrt(d2)
			}
			if ctx == 0 {
				// About 240 distinct neighbours: noise norm about 4/sqrt(240) = 0.26.
				if d := dist(i, -1); d > 0.5 {
					t.Errorf("no context: class-%d neighbours of class %d have mean %v away from mu_k", k, i, d)
				}
				continue
			}
			// Fidelity 1: the neighbours of centre i have partner i.
			if d := dist(i, i); d > 0.5 {
				t.Errorf("class-%d neighbours of class %d: mean %v away from mu_k + g_{k,i}", k, i, d)
			}
			// |g_{k,i} - g_{k,j}| is about 2*sqrt(2).
			if d := dist(j, i); d < 1.5 {
				t.Errorf("class-%d neighbours of class %d look like those of class %d (distance %v)", k, j, i, d)
			}
		}
	}
}

func TestCSBMReproducibleAndErrors(t *testing.T) {
	cfg := DefaultCSBMConfig()
	cfg.NumNodes = 500
	a, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateCSBM(cfg, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(a.Graph.Src(), b.Graph.Src()) || !a.Graph.Features().Equal(b.Graph.Features()) ||
		!slices.Equal(a.Graph.Splits()[3].Val, b.Graph.Splits()[3].Val) {
		t.Error("same seed, different graphs")
	}
	cfg.ClassProportions = []float64{5, 1, 1, 1, 2}
	c, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.ClassCounts, []int{250, 50, 50, 50, 100}) || !slices.Equal(c.Graph.ClassCounts(), c.ClassCounts) {
		t.Errorf("class counts %v", c.ClassCounts)
	}
	bad := []struct {
		modify func(*CSBMConfig)
		want   string
	}{
		{func(c *CSBMConfig) { c.NumClasses = 1 }, "NumClasses = 1"},
		{func(c *CSBMConfig) { c.Homophily = 2 }, "Homophily = 2"},
		{func(c *CSBMConfig) { c.ClassProportions = []float64{1, 2} }, "ClassProportions has 2 entries"},
		{func(c *CSBMConfig) { c.HeterophilyWeights[0][1] = 7 }, "not symmetric"},
		{func(c *CSBMConfig) { c.ContextFidelity = -1 }, "ContextFidelity = -1"},
		{func(c *CSBMConfig) { c.NumNodes, c.AverageDegree, c.Homophily = 10, 9, 1 }, "exceed the 5 same-class pairs"},
	}
	for _, tc := range bad {
		cfg := DefaultCSBMConfig()
		tc.modify(&cfg)
		if _, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want error containing %q", err, tc.want)
		}
	}
}

func BenchmarkGenerateCSBM12k(b *testing.B) {
	cfg := DefaultCSBMConfig()
	cfg.NumNodes, cfg.AverageDegree = 12000, 20
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, err := GenerateCSBM(cfg, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// CancelContext makes the shifts sum to zero along rows and columns (over the
// off-diagonal pairs) with mean norm ContextSeparation.
func TestCancelContextDoubleCentres(t *testing.T) {
	cfg := DefaultCSBMConfig()
	cfg.NumNodes, cfg.CancelContext = 300, true
	out, err := GenerateCSBM(cfg, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	g := out.ContextShifts
	c, f := len(g), cfg.NumFeatures
	var norms float64
	for k := range c {
		for i := range f {
			var row, col float64
			for t := range c {
				if t != k {
					row += g[k][t][i]
					col += g[t][k][i]
				}
			}
			if math.Abs(row) > 1e-9 || math.Abs(col) > 1e-9 {
				t.Fatalf("class %d dim %d: row sum %g, column sum %g", k, i, row, col)
			}
		}
		for t := range c {
			if t != k {
				var n float64
				for _, v := range g[k][t] {
					n += v * v
				}
				norms += math.Sqrt(n)
			}
		}
	}
	if m := norms / float64(c*(c-1)); math.Abs(m-cfg.ContextSeparation) > 1e-9 {
		t.Errorf("mean shift norm %v, want %v", m, cfg.ContextSeparation)
	}
}
