package labelwise

import (
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train/batched"
)

// fcRunBytes estimates the working memory one run of f_C adds to a batch
// (float32): per label-wise layer the all-classes product [N, C·out] with
// its gradient and gather (3 copies), about 10 [N, out] buffers, and the
// weights [in, C+1, out] with Adam's moments and gradient (4 copies); the
// small variant's projection and classifier add a few [N, Hidden] buffers.
// On Squirrel (dense, 2 layers of 256) it gives about 0.25 GB per run.
func fcRunBytes(g *graph.Graph, m LabelWiseGCN) int64 {
	n, f, c, h := int64(g.NumNodes()), int64(g.Features().NumCols()), int64(g.NumClasses()), int64(m.Hidden)
	var vals int64
	in := f
	if m.Variant == Small {
		vals += 4*f*h + 20*n*h + int64(m.Layers+1)*h*h*4
		in = h
	}
	for l := 1; l <= m.Layers; l++ {
		out := h
		if m.Variant == Dense && l == m.Layers {
			out = c
		}
		vals += 3*n*c*out + 10*n*out + 4*in*(c+1)*out
		in = h
	}
	return 4 * vals
}

// RunBytes implements batched.MemoryEstimator.
func (m BatchedFC) RunBytes(g *graph.Graph) int64 { return fcRunBytes(g, m.LabelWiseGCN) }

// RunBytes implements batched.MemoryEstimator: f_C's and f_G's.
func (m *BatchedSelection) RunBytes(g *graph.Graph) int64 {
	var fc int64
	if lw, ok := m.FC.(LabelWiseGCN); ok {
		fc = fcRunBytes(g, lw)
	}
	return fc + batched.RunBytes(g, m.FG)
}

var (
	_ batched.MemoryEstimator = BatchedFC{}
	_ batched.MemoryEstimator = (*BatchedSelection)(nil)
	_ nn.Model                = (*BatchedSelection)(nil)
)
