package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// base are the protocol's settings the basic entries start from.
func base(dataset string) Hyper {
	return Hyper{Hidden: 64, Dropout: 0.5, LR: DefaultLR, WeightDecay: DefaultWD, Epochs: DefaultEpochs}
}

func init() {
	Register(Entry{
		Name: "mlp", Title: "MLP", Paper: "two-layer perceptron (the paper's MLP baseline)",
		// The paper: "hidden dimension set the same as our LW-GCN"; the authors'
		// MLP class has no dropout, Adam lr 0.01, weight decay 5e-4.
		Defaults: func(d string) Hyper {
			h := base(d)
			h.Hidden, h.Dropout = lwgcnHidden(d), 0
			return h
		},
		Build: func(h Hyper) (nn.Model, Training, error) {
			if h.Hidden < 1 {
				return nil, Training{}, fmt.Errorf("hidden must be positive, got %d", h.Hidden)
			}
			return models.MLP{Hidden: h.Hidden, Dropout: h.Dropout}, Training{}, nil
		},
		AutoBatch: batchedFaster,
	})
}
