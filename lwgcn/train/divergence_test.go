package train

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestCheckLoss(t *testing.T) {
	for _, c := range []struct {
		epoch       int
		loss, first float64
		want        error
	}{
		{3, 1.6, 1.6, nil},
		{3, 16000, 1.6, nil}, // exactly 1e4 × 1.6: not above
		{3, 16001, 1.6, ErrDiverged},
		{3, 9999, 0.01, nil}, // first < 1 counts as 1
		{3, 10001, 0.01, ErrDiverged},
		{3, 1e15, 1.6, ErrDiverged},
		{3, math.NaN(), 1.6, ErrNonFinite},
		{3, math.Inf(1), 1.6, ErrNonFinite},
	} {
		err := CheckLoss(c.epoch, c.loss, c.first)
		if !errors.Is(err, c.want) || (err == nil) != (c.want == nil) || (err != nil && !strings.HasPrefix(err.Error(), "epoch 3: ")) {
			t.Errorf("CheckLoss(3, %v, %v) = %v, want %v", c.loss, c.first, err, c.want)
		}
	}
	err := CheckLoss(7, 1e15, 1.6)
	if want := "epoch 7: training diverged: train loss 1e+15 exceeds 10000 × the first epoch's 1.6"; err == nil || err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// explodingEpoch trains an MLP normally but reports a training loss of 10^e
// at epoch e: finite, growing, as a run with a learning rate of 10^6 does
// (GCN on Texas reached 1e15 and reported a normal-looking accuracy).
func explodingEpoch(m nn.Model) EpochFunc {
	inner := StandardEpoch(m)
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		ep := inner(scope, g, in, opt)
		counter := scope.In("explode").VariableWithValue("epochs", 0.0).SetTrainable(false)
		e := AddScalar(counter.NodeValue(g), 1)
		counter.SetNodeValue(e)
		ep.TrainLoss = Reshape(Pow(Scalar(g, dtypes.Float64, 10), e), 1)
		return ep
	}
}

func TestDivergenceStopsNamingTheEpoch(t *testing.T) {
	g := plantedGraph(t, 40, 2, 3)
	m := models.MLP{Hidden: 4}
	tr := quickTrainer(t, g, m, Config{Epochs: 20, Epoch: explodingEpoch(m)})
	_, err := tr.RunOne(context.Background(), Run{Split: 0, Seed: 1})
	// First loss 10: the limit is 1e5, first exceeded by 1e6 at epoch 6.
	if err == nil || !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "split 0, seed 1: epoch 6: training diverged") {
		t.Fatalf("err = %v, want divergence at epoch 6", err)
	}
}

// A split without test (or validation, or training) nodes is an error, not a
// test accuracy of 0.
func TestSplitWithoutNodesIsAnError(t *testing.T) {
	g := plantedGraph(t, 40, 2, 4)
	s := g.Splits()[0]
	for _, c := range []struct {
		split graph.Split
		want  string
	}{
		{graph.Split{Train: s.Train, Val: s.Val}, "no test nodes"},
		{graph.Split{Train: s.Train, Test: s.Test}, "no validation nodes"},
		{graph.Split{Val: s.Val, Test: s.Test}, "no training nodes"},
	} {
		h, err := g.WithSplits([]graph.Split{c.split})
		if err != nil {
			t.Fatal(err)
		}
		tr := quickTrainer(t, h, models.MLP{Hidden: 4}, Config{Epochs: 2})
		_, err = tr.RunOne(context.Background(), Run{Split: 0, Seed: 1})
		if want := `train: split 0 of graph "planted" has ` + c.want; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
}
