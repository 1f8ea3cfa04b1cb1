package zoo

import (
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// BenchmarkLINKXSimPGCNGloGNNEpoch measures one training epoch (training step and
// evaluation pass) of LINKX, SimP-GCN and GloGNN++ with their dataset
// defaults, preprocessing (kNN graph, pairs, structures) and compilation
// excluded:
//
//	go test ./lwgcn/zoo -run '^$' -bench 'LINKXSimPGCNGloGNNEpoch/squirrel' -benchtime 20x
func BenchmarkLINKXSimPGCNGloGNNEpoch(b *testing.B) {
	benchBaselineEpochs(b, []string{"chameleon", "squirrel"}, []string{"linkx", "simpgcn", "glognn++"})
}

// BenchmarkFAGCNBMGCNEpoch measures one training epoch of FAGCN and BM-GCN,
// whose aggregations weight the edges in the graph (FAGCN: sparse.MulWeighted
// in the entry order; BM-GCN: its weights in the slot layout,
// sparse.RowSlots); BM-GCN's two phases (MLP pre-training, joint) have their
// own graphs and are timed apart (bmgcn-pre, bmgcn-joint):
//
//	go test ./lwgcn/zoo -run '^$' -bench 'FAGCNBMGCNEpoch/squirrel' -benchtime 10x
func BenchmarkFAGCNBMGCNEpoch(b *testing.B) {
	benchBaselineEpochs(b, []string{"chameleon", "squirrel"}, []string{"fagcn", "bmgcn-pre", "bmgcn-joint"})
}

// BenchmarkSuperGATEpoch measures one training epoch of SuperGAT (its
// attention in the slot layout, sparse.RowSlots; the link loss's samples
// included):
//
//	go test ./lwgcn/zoo -run '^$' -bench 'SuperGATEpoch' -benchtime 10x
func BenchmarkSuperGATEpoch(b *testing.B) {
	benchBaselineEpochs(b, []string{"chameleon", "squirrel_filtered"}, []string{"supergat"})
}

// benchHyper is the entry and settings a benchmark case name times: an
// entry's defaults, or BM-GCN kept in one phase (bmgcn-pre: pre-training
// for every timed epoch; bmgcn-joint: no pre-training).
func benchHyper(name, ds string) (Entry, Hyper) {
	switch name {
	case "bmgcn-pre", "bmgcn-joint":
		e, _ := Lookup("bmgcn")
		h := e.Defaults(ds)
		if name == "bmgcn-joint" {
			return e, h.With(BMGCNMLPEpochsKey, 0)
		}
		h.Epochs = 1_000_000
		return e, h.With(BMGCNMLPEpochsKey, float64(h.Epochs-1))
	}
	e, _ := Lookup(name)
	return e, e.Defaults(ds)
}

// benchBaselineEpochs times one epoch of each model on each dataset with
// their defaults (split 0, seed 15), after one untimed epoch.
func benchBaselineEpochs(b *testing.B, datasetNames, modelNames []string) {
	be, info, err := backend.Shared()
	if err != nil {
		b.Fatal(err)
	}
	for _, ds := range datasetNames {
		g := datasets.Standard(dstest.Load(b, ds))
		for _, name := range modelNames {
			b.Run(ds+"/"+name, func(b *testing.B) {
				e, h := benchHyper(name, ds)
				tr, err := NewTrainer(be, info, g, e.Name, h, train.Silent{})
				if err != nil {
					b.Fatal(err)
				}
				er, err := tr.PrepareRuns(train.Run{Split: 0, Seed: 15})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := er.Epoch(); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					if _, err := er.Epoch(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
