package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func init() {
	// pygcn (the paper's GCN code) row-normalises the features, as the
	// standard preprocessing does, but normalises the adjacency by rows,
	// D^-1 (A + I), where this GCN has Kipf & Welling's symmetric
	// D^-1/2 (A + I) D^-1/2, and it reports the last of 200 epochs where the
	// protocol keeps the best validation epoch of 400. Every GCN cell is
	// within the paper's standard deviation, and the depth study and sweeps
	// build on this GCN, so it is kept.
	Register(Entry{
		Name: "gcn", Title: "GCN", Paper: "Kipf & Welling, ICLR 2017 (pygcn settings: 64 hidden, dropout 0.5, lr 0.01, wd 5e-4)",
		Defaults: base,
		Build: func(h Hyper) (nn.Model, Training, error) {
			if err := atLeast("hidden", h.Hidden, 1); err != nil {
				return nil, Training{}, err
			}
			if h.Layers == 1 {
				// models.GCN would silently train 2.
				return nil, Training{}, fmt.Errorf("layers must be 0 (the reference, 2) or >= 2, got 1")
			}
			return models.GCN{Hidden: h.Hidden, Dropout: h.Dropout, Layers: h.Layers}, Training{}, nil
		},
		Graph:     Undirected,
		AutoBatch: batchedFaster,
	})
}
