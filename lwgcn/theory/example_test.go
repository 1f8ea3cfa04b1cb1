package theory_test

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// Two classes, one neighbour (d = 1), h = 1/4. A class-0 centre's neighbour
// is class 0 w.p. 1/4 (N(1, 0.5^2)) or class 1 w.p. 3/4 (N(3, 1)):
// E[z|0] = 2.5 and Var(z|0) = 1/4*1.25 + 3/4*10 - 2.5^2 = 1.5625.
func ExampleParams_GCN() {
	p, err := theory.NewParams(1, 0.25, [][]float64{{1, 3}, {0, 2}}, [][]float64{{0.5, 1}, {2, 0.1}})
	if err != nil {
		panic(err)
	}
	s, _ := p.GCN(0, 1)
	fmt.Printf("E[z|0]=%.5g Var(z|0)=%.5g E[z|1]=%.5g Var(z|1)=%.5g gap=%.5g ratio_i=%.5g\n",
		s.MeanI, s.VarI, s.MeanJ, s.VarJ, s.Gap, s.RatioI)
	// Output: E[z|0]=2.5 Var(z|0)=1.5625 E[z|1]=0.5 Var(z|1)=3.7525 gap=2 ratio_i=2.56
}

// With D = 2 and S = 1.3 the GCN gap vanishes at h* = 0.7/4.7 = 7/47, not at
// 1/C = 1/3, although Theorem 1's premises hold.
func ExampleParams_GCNGapLine() {
	p, _ := theory.NewParams(5, 0.5,
		[][]float64{{2, 0.5, 0.3}, {1.5, 0, 0}, {0, 1, 2}},
		[][]float64{{0.3, 1, 1}, {1, 0.2, 1}, {1, 1, 0.5}})
	g, _ := p.GCNGapLine(0, 1)
	prem, _ := p.Theorem1Premises(0, 1)
	fmt.Printf("D=%.3g S=%.3g h*=%.6f (7/47=%.6f) gap(1/3)=%.4f premises=%v\n",
		g.D, g.S, g.HStar, 7.0/47, g.Gap(1.0/3), prem.MeanGapDominates && prem.SpreadDominates)
	// Output: D=2 S=1.3 h*=0.148936 (7/47=0.148936) gap(1/3)=0.4333 premises=true
}

// n ~ Binomial(3, 1/3): E[1/n; n >= 1] = 4/9 + (2/9)/2 + (1/27)/3 = 46/81.
func ExampleExpectedInverseCount() {
	fmt.Printf("%.6f %.6f\n", theory.ExpectedInverseCount(3, 1.0/3), 46.0/81)
	// Output: 0.567901 0.567901
}

// Theorem 2's condition holds (|mu_ik - mu_jk| = 2 > sqrt(C/d) sigma = 1)
// and the paper's ratio is 7.2, but with d = 2 and h = 0.1 the exact ratio
// of the best class (zero embedding for missing classes) is 0.38^2/0.585.
func ExampleParams_LabelWise() {
	p, _ := theory.NewParams(2, 0.1, [][]float64{{2, 0}, {0, 2}}, theory.ConstantMatrix(2, 1))
	s, _ := p.LabelWise(0, 1)
	fmt.Printf("condition=%v bound=%.3g paper k*=%d ratio=%.3g exact k*=%d ratio=%.4f\n",
		s.Condition, s.Bound, s.BestApprox, s.BestApproxRatio, s.BestExact, s.BestExactRatio)
	// Output: condition=true bound=4 paper k*=1 ratio=7.2 exact k*=1 ratio=0.2468
}
