package figures

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// ContextMeans returns the C x C matrix of neighbour means mu_ik used by the
// theorem notebooks: class k's own mean is m_k = spread (1 - 2k/(C-1))
// (spread, ..., -spread) and a class-k neighbour of a class-i centre is
// shifted by context r/(C-1) with r = (k-i) mod C in 1..C-1, so its mean
// depends on the centre's class (assumption (ii)):
//
//	mu_ii = m_i,  mu_ik = m_k + context ((k-i) mod C)/(C-1)  (k != i).
//
// Every row's shifts sum to context C/2, so S = sum_k (mu_ik - mu_jk) = 0
// and D = mu_ii - mu_jj = m_i - m_j: the GCN gap vanishes exactly at 1/C.
// For C = 3, spread 2, context 1 the rows are (2, 0.5, -1), (3, 0, -1.5),
// (2.5, 1, -2). It returns nil for c < 2 (NewSetting then reports it).
func ContextMeans(c int, spread, context float64) [][]float64 {
	if c < 2 {
		return nil
	}
	mu := make([][]float64, c)
	for i := range mu {
		mu[i] = make([]float64, c)
		for k := range mu[i] {
			mu[i][k] = spread * (1 - 2*float64(k)/float64(c-1))
			if k != i {
				r := ((k-i)%c + c) % c
				mu[i][k] += context * float64(r) / float64(c-1)
			}
		}
	}
	return mu
}

// ShiftHeterophilic returns a copy of mu with row i's heterophilic entries
// mu_ik (k != i) raised by shift: class-i centres see their other-class
// neighbours shifted. For the pair (i, j) this adds (C-1) shift to S and
// leaves D unchanged. An out-of-range i returns an unchanged copy.
func ShiftHeterophilic(mu [][]float64, i int, shift float64) [][]float64 {
	out := make([][]float64, len(mu))
	for r := range mu {
		out[r] = append([]float64(nil), mu[r]...)
		if r == i {
			for k := range out[r] {
				if k != i {
					out[r][k] += shift
				}
			}
		}
	}
	return out
}

// MeansHeatmap draws a setting's matrix mu_ik (rows: centre class i,
// columns: neighbour class k) with annotated cells on a diverging scale
// centred at 0.
func MeansHeatmap(s Setting) *plot.Heatmap {
	mu := s.Params.Mu
	rows, cols := make([]string, len(mu)), make([]string, len(mu))
	for k := range mu {
		rows[k] = fmt.Sprintf("i = %d", k)
		cols[k] = fmt.Sprintf("k = %d", k)
	}
	return plot.NewHeatmap(s.Name+": μ_ik", mu).Rows(rows...).Cols(cols...).
		XLabel("neighbour class k").YLabel("centre class i").Diverging(0).Annotate("%.3g").ColorLabel("μ_ik")
}
