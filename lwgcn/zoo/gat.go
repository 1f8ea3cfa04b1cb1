package zoo

import (
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func init() {
	// GAT's official code (PetarV-/GAT, execute_cora.py) row-normalises the
	// Planetoid features (preprocess_features), as the standard
	// preprocessing does; it keeps the weights of the last epoch that raised
	// the validation accuracy and lowered the loss together and stops after
	// 100 epochs that improve neither. GAT is no Table 2 baseline of the
	// paper (only the sweeps and the heterophily table run it), so it keeps
	// the protocol's selection, as the sweeps recorded it.
	Register(Entry{
		Name: "gat", Title: "GAT", Paper: "Velickovic et al., ICLR 2018 (8 heads x 8 hidden, dropout 0.6, lr 0.005, wd 5e-4)",
		Defaults: func(d string) Hyper {
			h := base(d)
			h.Hidden, h.Heads, h.Dropout, h.LR = 8, 8, 0.6, 0.005
			return h
		},
		Build: func(h Hyper) (nn.Model, Training, error) {
			if err := atLeast("hidden", h.Hidden, 1); err != nil {
				return nil, Training{}, err
			}
			if err := atLeast("heads", h.Heads, 1); err != nil {
				return nil, Training{}, err
			}
			return models.GAT{Hidden: h.Hidden, Heads: h.Heads, OutHeads: 1, Dropout: h.Dropout, AttentionDropout: h.Dropout}, Training{}, nil
		},
		Graph:     Undirected,
		AutoBatch: batchedFaster,
	})
}
