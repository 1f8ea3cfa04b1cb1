package models_test

import (
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestSuperGATPrepareErrors(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, m := range []models.SuperGAT{
		{Hidden: 0, Heads: 1, OutHeads: 1},
		{Hidden: 2, Heads: 1, OutHeads: 1, EdgeSampleRatio: 1.5},
		{Hidden: 2, Heads: 1, OutHeads: 1, NegSampleRatio: -1},
	} {
		if err := m.Prepare(g, nn.NewInputs()); err == nil {
			t.Fatalf("%+v accepted", m)
		}
	}
}
