package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
)

// CSBMConfig configures GenerateCSBM. Start from DefaultCSBMConfig.
type CSBMConfig struct {
	// Name of the graph ("" gives "csbm").
	Name string
	// NumNodes is N and NumClasses is C (N >= C >= 2).
	NumNodes, NumClasses int
	// ClassProportions are the class sizes' proportions (nil: balanced);
	// sizes are rounded by largest remainder to sum to N.
	ClassProportions []float64
	// Homophily is the target edge homophily h and AverageDegree the target
	// directed edges per node d of the symmetric graph.
	Homophily, AverageDegree float64
	// HeterophilyWeights is a symmetric C x C matrix of non-negative weights
	// W: heterophilic edges fall on the class pair {a,b} with probability
	// proportional to W[a][b]*n_a*n_b (the diagonal is ignored). nil means
	// uniform, which with balanced classes is the paper's assumption (i):
	// every other class gets (1-h)/(C-1) of a node's neighbours.
	HeterophilyWeights [][]float64
	// NumFeatures is F.
	NumFeatures int
	// FeatureSeparation is the norm of each class mean (random unit
	// direction times this): two class means are about sqrt(2) times it
	// apart, in units of FeatureNoise.
	FeatureSeparation float64
	// ContextSeparation is the norm of the shift G[k][t] added to the
	// features of a class-k node whose partner class is t (each node draws a
	// partner t != k with probability proportional to W[k][t]*n_t). With
	// ContextFidelity > 0 class-k neighbours of class-i nodes mostly have
	// partner i, so their mean feature depends on the centre's class, as in
	// the paper's assumption (ii); 0 switches the context off.
	ContextSeparation float64
	// ContextFidelity is the probability that an endpoint of a heterophilic
	// edge {a,b} is drawn among the class-a nodes whose partner is b (else
	// uniformly in class a).
	ContextFidelity float64
	// CancelContext double-centres the context shifts over the off-diagonal
	// pairs (sum_t G[k][t] = 0 for every class k and sum_k G[k][t] = 0 for
	// every partner t, then rescaled to mean norm ContextSeparation), so that
	// with uniform heterophily the mean of a node's neighbours no longer
	// depends on its class at h = 1/C: the S = 0 case of Theorem 1, where
	// GCN's aggregation loses the context that label-wise aggregation keeps.
	CancelContext bool
	// FeatureNoise is the standard deviation of the isotropic Gaussian noise.
	FeatureNoise float64
	// Splits configures the random splits stored in the graph.
	Splits SplitOptions
}

// Defaults of DefaultCSBMConfig.
const (
	DefaultCSBMNodes             = 3000
	DefaultCSBMClasses           = 5
	DefaultCSBMHomophily         = 0.2
	DefaultCSBMDegree            = 10
	DefaultCSBMFeatures          = 64
	DefaultCSBMFeatureSeparation = 1.0
	DefaultCSBMContextSeparation = 2.0
	DefaultCSBMContextFidelity   = 0.9
	DefaultCSBMFeatureNoise      = 1.0
	// DefaultCSBMRingStrength is the extra weight RingHeterophily gives to
	// the two ring neighbours of each class in the default config.
	DefaultCSBMRingStrength = 3.0
)

// DefaultCSBMConfig returns a heterophilic (h = 0.2), 5-class, 3,000-node
// configuration with a ring heterophily pattern and informative context.
func DefaultCSBMConfig() CSBMConfig {
	return CSBMConfig{
		Name: "csbm", NumNodes: DefaultCSBMNodes, NumClasses: DefaultCSBMClasses,
		Homophily: DefaultCSBMHomophily, AverageDegree: DefaultCSBMDegree,
		HeterophilyWeights: RingHeterophily(DefaultCSBMClasses, DefaultCSBMRingStrength),
		NumFeatures:        DefaultCSBMFeatures, FeatureSeparation: DefaultCSBMFeatureSeparation,
		ContextSeparation: DefaultCSBMContextSeparation, ContextFidelity: DefaultCSBMContextFidelity,
		FeatureNoise: DefaultCSBMFeatureNoise,
	}
}

// RingHeterophily returns symmetric weights 1 + strength between classes
// adjacent on the ring 0-1-...-(C-1)-0 and 1 between the others (0 on the
// diagonal): each class's heterophilic neighbours concentrate on its two ring
// neighbours.
func RingHeterophily(c int, strength float64) [][]float64 {
	w := make([][]float64, c)
	for a := range w {
		w[a] = make([]float64, c)
		for b := range w[a] {
			switch d := (b - a + c) % c; {
			case d == 0:
			case d == 1 || d == c-1:
				w[a][b] = 1 + strength
			default:
				w[a][b] = 1
			}
		}
	}
	return w
}

// CSBM is a generated graph with its realised statistics and hidden
// parameters.
type CSBM struct {
	Graph    *graph.Graph
	Realised Realised
	// Compatibility is homophily.CompatibilityMatrix(Graph).Fractions; ExpectedCompatibility its
	// expectation under the configuration.
	Compatibility, ExpectedCompatibility [][]float64
	ClassCounts                          []int
	// ClassMeans[c] is class c's feature mean (F values).
	ClassMeans [][]float64
	// ContextShifts[k][t] is the shift of class-k nodes with partner t (nil
	// for t == k).
	ContextShifts [][][]float64
	// Partner[v] is v's partner class (-1 when its class has no
	// heterophilic weight).
	Partner []int32
}

func (cfg CSBMConfig) validate() error {
	c := cfg.NumClasses
	switch {
	case c < 2:
		return fmt.Errorf("NumClasses = %d, need >= 2", c)
	case cfg.NumNodes < c:
		return fmt.Errorf("NumNodes = %d, need >= NumClasses = %d", cfg.NumNodes, c)
	case cfg.NumNodes >= math.MaxInt32:
		return fmt.Errorf("NumNodes = %d exceeds the int32 node ids", cfg.NumNodes)
	case !(cfg.Homophily >= 0 && cfg.Homophily <= 1):
		return fmt.Errorf("Homophily = %v, need 0 <= h <= 1", cfg.Homophily)
	case !(cfg.AverageDegree >= 0) || math.IsInf(cfg.AverageDegree, 0):
		return fmt.Errorf("AverageDegree = %v, need a finite d >= 0", cfg.AverageDegree)
	case cfg.NumFeatures < 1:
		return fmt.Errorf("NumFeatures = %d, need >= 1", cfg.NumFeatures)
	case !(cfg.FeatureSeparation >= 0), !(cfg.ContextSeparation >= 0), !(cfg.FeatureNoise >= 0):
		return fmt.Errorf("FeatureSeparation %v, ContextSeparation %v and FeatureNoise %v must be >= 0",
			cfg.FeatureSeparation, cfg.ContextSeparation, cfg.FeatureNoise)
	case !(cfg.ContextFidelity >= 0 && cfg.ContextFidelity <= 1):
		return fmt.Errorf("ContextFidelity = %v, need 0 <= f <= 1", cfg.ContextFidelity)
	}
	if p := cfg.ClassProportions; p != nil {
		if len(p) != c {
			return fmt.Errorf("ClassProportions has %d entries, want NumClasses = %d", len(p), c)
		}
		for i, v := range p {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("ClassProportions[%d] = %v, need a finite proportion > 0", i, v)
			}
		}
	}
	if w := cfg.HeterophilyWeights; w != nil {
		if len(w) != c {
			return fmt.Errorf("HeterophilyWeights has %d rows, want NumClasses = %d", len(w), c)
		}
		for a := range w {
			if len(w[a]) != c {
				return fmt.Errorf("HeterophilyWeights row %d has %d entries, want %d", a, len(w[a]), c)
			}
			for b := range w[a] {
				if !(w[a][b] >= 0) || math.IsInf(w[a][b], 0) {
					return fmt.Errorf("HeterophilyWeights[%d][%d] = %v, need a finite weight >= 0", a, b, w[a][b])
				}
				if w[a][b] != w[b][a] {
					return fmt.Errorf("HeterophilyWeights is not symmetric: [%d][%d] = %v but [%d][%d] = %v",
						a, b, w[a][b], b, a, w[b][a])
				}
			}
		}
	}
	return nil
}

// classSizes splits n by proportions with largest-remainder rounding.
func classSizes(n int, props []float64) []int {
	var total float64
	for _, p := range props {
		total += p
	}
	sizes := make([]int, len(props))
	rem := make([]float64, len(props))
	left := n
	for c, p := range props {
		exact := float64(n) * p / total
		sizes[c] = int(exact)
		rem[c] = exact - float64(sizes[c])
		left -= sizes[c]
	}
	order := make([]int, len(props))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case rem[a] > rem[b]:
			return -1
		case rem[a] < rem[b]:
			return 1
		}
		return 0
	})
	for i := 0; i < left; i++ {
		sizes[order[i%len(order)]]++
	}
	return sizes
}

// GenerateCSBM samples a contextual stochastic block model:
//
//  1. class sizes from ClassProportions, labels placed in random order;
//  2. each node draws a partner class t != y (probability proportional to
//     W[y][t]*n_t);
//  3. m = round(d*N/2) undirected edges, m_s = round(h*m) of them between
//     uniformly random distinct nodes of one class (class chosen in
//     proportion to its number of pairs) and m - m_s heterophilic: class pair
//     {a,b} drawn in proportion to W[a][b]*n_a*n_b, each endpoint taken with
//     probability ContextFidelity among the nodes of its class whose partner
//     is the other class, else uniformly in its class; duplicate pairs are
//     redrawn, so the graph is simple and symmetric and hits h within 0.5/m
//     and d within 1/N;
//  4. features x_v = FeatureSeparation*u_y + ContextSeparation*g_{y,t} +
//     FeatureNoise*N(0, I) with random unit directions u, g;
//  5. Splits random splits (48/32/20 by default).
func GenerateCSBM(cfg CSBMConfig, rng *rand.Rand) (*CSBM, error) {
	fail := func(format string, args ...any) (*CSBM, error) {
		return nil, fmt.Errorf("synth: GenerateCSBM: %s", fmt.Sprintf(format, args...))
	}
	if rng == nil {
		return fail("nil *rand.Rand")
	}
	if err := cfg.validate(); err != nil {
		return fail("%v", err)
	}
	n, c, f := cfg.NumNodes, cfg.NumClasses, cfg.NumFeatures
	props := cfg.ClassProportions
	if props == nil {
		props = make([]float64, c)
		for i := range props {
			props[i] = 1
		}
	}
	w := cfg.HeterophilyWeights
	if w == nil {
		w = RingHeterophily(c, 0)
	}
	sizes := classSizes(n, props)
	labels := make([]int32, 0, n)
	for cl, s := range sizes {
		for range s {
			labels = append(labels, int32(cl))
		}
	}
	rng.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	ci := newClassIndex(labels, c)

	// Partner classes and the pools of nodes of class a with partner b.
	partner := make([]int32, n)
	pools := make([][][]int32, c)
	for a := range pools {
		pools[a] = make([][]int32, c)
	}
	for v, y := range labels {
		partner[v] = -1
		var tot float64
		for t := range c {
			if t != int(y) {
				tot += w[y][t] * float64(sizes[t])
			}
		}
		if tot == 0 {
			continue
		}
		r := rng.Float64() * tot
		t := -1
		for k := range c {
			if k == int(y) || w[y][k] == 0 {
				continue
			}
			t = k
			r -= w[y][k] * float64(sizes[k])
			if r < 0 {
				break
			}
		}
		partner[v] = int32(t)
		pools[y][t] = append(pools[y][t], int32(v))
	}

	// Edge budget.
	m := int(math.Round(cfg.AverageDegree * float64(n) / 2))
	ms := int(math.Round(cfg.Homophily * float64(m)))
	mn := m - ms
	intraW := make([]float64, c)
	var intraTot float64
	for cl, s := range sizes {
		intraW[cl] = float64(s) * float64(s-1) / 2
		intraTot += intraW[cl]
	}
	type classPair struct{ a, b int }
	var pairs []classPair
	var pairW []float64
	var interTot, interCap float64
	for a := range c {
		for b := a + 1; b < c; b++ {
			if w[a][b] > 0 {
				pairs = append(pairs, classPair{a, b})
				wt := w[a][b] * float64(sizes[a]) * float64(sizes[b])
				pairW = append(pairW, wt)
				interTot += wt
				interCap += float64(sizes[a]) * float64(sizes[b])
			}
		}
	}
	if float64(ms) > intraTot {
		return fail("%d homophilic edges (h=%v, d=%v) exceed the %v same-class pairs", ms, cfg.Homophily, cfg.AverageDegree, intraTot)
	}
	if float64(mn) > interCap {
		return fail("%d heterophilic edges (h=%v, d=%v) exceed the %v different-class pairs with positive weight",
			mn, cfg.Homophily, cfg.AverageDegree, interCap)
	}
	taken := make(pairSet, m)
	keys := make([]uint64, 0, m)
	maxAttempts := 50*m + 10000
	attempts := 0
	pick := func(weights []float64, total float64) int {
		r := rng.Float64() * total
		for i, wt := range weights {
			r -= wt
			if r < 0 {
				return i
			}
		}
		return len(weights) - 1
	}
	for len(keys) < ms {
		if attempts++; attempts > maxAttempts {
			return fail("could not place %d distinct homophilic edges in %d attempts: graph too dense", ms, maxAttempts)
		}
		mem := ci.members[pick(intraW, intraTot)]
		if len(mem) < 2 {
			continue
		}
		a := rng.IntN(len(mem))
		b := rng.IntN(len(mem) - 1)
		if b >= a {
			b++
		}
		if k := pairKey(mem[a], mem[b]); !taken.has(k) {
			taken[k] = struct{}{}
			keys = append(keys, k)
		}
	}
	endpoint := func(a, b int) int32 {
		if pool := pools[a][b]; len(pool) > 0 && rng.Float64() < cfg.ContextFidelity {
			return pool[rng.IntN(len(pool))]
		}
		mem := ci.members[a]
		return mem[rng.IntN(len(mem))]
	}
	for len(keys) < m {
		if attempts++; attempts > maxAttempts {
			return fail("could not place %d distinct heterophilic edges in %d attempts: graph too dense or context pools too small",
				mn, maxAttempts)
		}
		p := pairs[pick(pairW, interTot)]
		if k := pairKey(endpoint(p.a, p.b), endpoint(p.b, p.a)); !taken.has(k) {
			taken[k] = struct{}{}
			keys = append(keys, k)
		}
	}

	// Features.
	unit := func() []float64 {
		v := make([]float64, f)
		var norm float64
		for i := range v {
			v[i] = rng.NormFloat64()
			norm += v[i] * v[i]
		}
		norm = math.Sqrt(norm)
		for i := range v {
			v[i] /= norm
		}
		return v
	}
	means := make([][]float64, c)
	shifts := make([][][]float64, c)
	for a := range c {
		means[a] = unit()
		for i := range means[a] {
			means[a][i] *= cfg.FeatureSeparation
		}
		shifts[a] = make([][]float64, c)
		for t := range c {
			if t == a {
				continue
			}
			shifts[a][t] = unit()
			for i := range shifts[a][t] {
				shifts[a][t][i] *= cfg.ContextSeparation
			}
		}
	}
	if cfg.CancelContext && c > 2 {
		doubleCentre(shifts, f, cfg.ContextSeparation)
	}
	x := make([]float32, n*f)
	for v, y := range labels {
		row := x[v*f : (v+1)*f]
		for i := range row {
			val := means[y][i] + cfg.FeatureNoise*rng.NormFloat64()
			if t := partner[v]; t >= 0 {
				val += shifts[y][t][i]
			}
			row[i] = float32(val)
		}
	}
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		return fail("%v", err)
	}
	splits, err := RandomSplits(labels, cfg.Splits, rng)
	if err != nil {
		return fail("%v", err)
	}
	name := cfg.Name
	if name == "" {
		name = "csbm"
	}
	base, err := graph.New(graph.Spec{Name: name, NumNodes: n, Features: feats, Labels: labels, NumClasses: c, Splits: splits})
	if err != nil {
		return fail("%v", err)
	}
	g, err := symmetricGraph(base, keys, name)
	if err != nil {
		return fail("%v", err)
	}
	out := &CSBM{Graph: g, ClassCounts: sizes, ClassMeans: means, ContextShifts: shifts, Partner: partner}
	out.Realised = Realised{TargetH: cfg.Homophily, TargetDegree: cfg.AverageDegree, H: math.NaN(),
		AverageDegree: g.AverageDegree(), UndirectedEdges: m, Homophilic: ms, Heterophilic: mn}
	out.Compatibility = make([][]float64, c)
	for k := range out.Compatibility {
		out.Compatibility[k] = make([]float64, c)
	}
	if m > 0 {
		out.Realised.H = float64(ms) / float64(m)
		compat, err := homophily.CompatibilityMatrix(g)
		if err != nil {
			return fail("%v", err)
		}
		out.Compatibility = compat.Fractions
	}
	// Expected compatibility: a class-i node's neighbour ends are 2*E[M_ii]
	// of class i and E[M_ik] of class k.
	exp := make([][]float64, c)
	for i := range exp {
		exp[i] = make([]float64, c)
		if intraTot > 0 {
			exp[i][i] = 2 * float64(ms) * intraW[i] / intraTot
		}
	}
	for pi, p := range pairs {
		e := float64(mn) * pairW[pi] / interTot
		exp[p.a][p.b] += e
		exp[p.b][p.a] += e
	}
	for i := range exp {
		var s float64
		for _, v := range exp[i] {
			s += v
		}
		if s > 0 {
			for k := range exp[i] {
				exp[i][k] /= s
			}
		}
	}
	out.ExpectedCompatibility = exp
	return out, nil
}

// doubleCentre makes the off-diagonal shift vectors sum to zero along every
// row and every column (alternating projections, which converge for C > 2)
// and rescales them to mean norm sep.
func doubleCentre(shifts [][][]float64, f int, sep float64) {
	c := len(shifts)
	for range 50 {
		for k := range c { // rows
			mean := make([]float64, f)
			for t := range c {
				if t != k {
					for i := range mean {
						mean[i] += shifts[k][t][i] / float64(c-1)
					}
				}
			}
			for t := range c {
				if t != k {
					for i := range mean {
						shifts[k][t][i] -= mean[i]
					}
				}
			}
		}
		for t := range c { // columns
			mean := make([]float64, f)
			for k := range c {
				if k != t {
					for i := range mean {
						mean[i] += shifts[k][t][i] / float64(c-1)
					}
				}
			}
			for k := range c {
				if k != t {
					for i := range mean {
						shifts[k][t][i] -= mean[i]
					}
				}
			}
		}
	}
	var total float64
	for k := range c {
		for t := range c {
			if t != k {
				var n float64
				for _, v := range shifts[k][t] {
					n += v * v
				}
				total += math.Sqrt(n)
			}
		}
	}
	if scale := sep / (total / float64(c*(c-1))); total > 0 {
		for k := range c {
			for t := range c {
				for i := range shifts[k][t] {
					shifts[k][t][i] *= scale
				}
			}
		}
	}
}
