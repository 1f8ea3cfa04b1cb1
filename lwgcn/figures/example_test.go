package figures_test

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// Notebook 02's setting B: C = 3, rows (2, 1, -0.5), (3, 0, -1.5),
// (2.5, 1, -2), sigma = 1. At h = 1/C the gap is |S|/C = 1/3 and
// Var(z|0) = (1 + sigma_0^2)/d with sigma_0^2 = 19/18, so z is
// non-discriminable (Delta^2 < Var) iff d < (37/18)/(1/9) = 18.5, while the
// proof's sufficient condition sigma_0 > sqrt(d) max_k |mu_0k - mu_1k| only
// covers d < 19/18.
func ExampleUniformThresholds() {
	mu := figures.ShiftHeterophilic(figures.ContextMeans(3, 2, 1), 0, 0.5)
	s, err := figures.NewSetting("B", mu, theory.ConstantMatrix(3, 1))
	if err != nil {
		panic(err)
	}
	th, _ := figures.UniformThresholds(s.Params, 0, 1)
	fmt.Println(mu)
	fmt.Printf("gap %.4f, exact: d < %.4g, paper: d < %.4f\n", th.Gap, th.Exact, th.Paper)
	// Output:
	// [[2 1 -0.5] [3 0 -1.5] [2.5 1 -2]]
	// gap 0.3333, exact: d < 18.5, paper: d < 1.0556
}
