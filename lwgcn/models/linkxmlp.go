package models

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// LINKXMLP is the MLP of the LINKX code (adapted from Correct & Smooth):
//
//	layers = 1:  Linear(x)                                            ("lin0")
//	layers > 1:  h = Dropout(BatchNorm1d(ReLU(Linear(h))))  layers-1 times ("lin<i>", "bn<i>"),
//	             then Linear(h)                                        ("lin<layers-1>")
//
// Note the order ReLU then batch norm, and no dropout before the first
// layer. Shapes: x N x F (sparse or dense Features; the first layer is a
// SparseLinear), hidden and out widths, result [N, out]. Initialisation:
// PyTorch's nn.Linear; batch norm as BatchNorm1d.
func LINKXMLP(scope *model.Scope, x nn.Features, hidden, out, layers int, dropout float64, train bool) *Node {
	if layers <= 1 {
		return nn.SparseLinear(scope.In("lin0"), x, out, true)
	}
	h := nn.SparseLinear(scope.In("lin0"), x, hidden, true)
	for i := 0; i < layers-1; i++ {
		if i > 0 {
			h = nn.Linear(scope.In("lin%d", i), h, hidden, true)
		}
		h = nn.BatchNorm1d(scope.In("bn%d", i), nn.ReLU(h), train)
		h = nn.Dropout(scope, h, dropout, train)
	}
	return nn.Linear(scope.In("lin%d", layers-1), h, out, true)
}
