package nntest

import (
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// FAReference computes FAConv by the formula, edge by edge: the graph's
// edges without self loops, d(v) = in-degree clamped to 1.
func FAReference(g *graph.Graph, h [][]float64, w []float64, b float64) [][]float64 {
	n, hid := len(h), len(h[0])
	deg := make([]float64, n)
	for e, u := range g.Src() {
		if v := g.Dst()[e]; u != v {
			deg[v]++
		}
	}
	out := make([][]float64, n)
	for v := range out {
		out[v] = make([]float64, hid)
	}
	for e, u := range g.Src() {
		v := g.Dst()[e]
		if u == v {
			continue
		}
		s := b
		for j := range hid {
			s += w[j]*h[v][j] + w[hid+j]*h[u][j]
		}
		// The scales d^-1/2 are stored as float32.
		sv, su := float64(float32(1/math.Sqrt(max(deg[v], 1)))), float64(float32(1/math.Sqrt(max(deg[u], 1))))
		coef := math.Tanh(s) * sv * su
		for j := range hid {
			out[v][j] += coef * h[u][j]
		}
	}
	return out
}

// ScaleRows returns diag(s)·m.
func ScaleRows(m [][]float64, s []float64) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		for _, v := range m[i] {
			out[i] = append(out[i], v*s[i])
		}
	}
	return out
}
