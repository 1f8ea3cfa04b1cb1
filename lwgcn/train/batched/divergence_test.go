package batched

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// A run whose loss explodes stops the batch with the run and the epoch
// named, as the unbatched trainer does (train.CheckLoss): a learning rate of
// 1e6 drives GCN's loss far past its start, often while staying finite.
func TestBatchedDivergenceStopsNamingTheEpoch(t *testing.T) {
	g := tinyGraph(t, 60, 3, true, 5)
	b, _ := backend.MustShared()
	bt, err := New(b, models.GCN{Hidden: 8}, g, Config{Epochs: 50, LR: 1e6, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bt.Run(context.Background(), differentRuns[:2])
	if err == nil {
		t.Fatal("a run with learning rate 1e6 trained 50 epochs without an error")
	}
	if !errors.Is(err, train.ErrDiverged) && !errors.Is(err, train.ErrNonFinite) {
		t.Fatalf("err = %v, want ErrDiverged or ErrNonFinite", err)
	}
	if !strings.Contains(err.Error(), "split ") || !strings.Contains(err.Error(), ": epoch ") {
		t.Fatalf("err = %v: does not name the split and the epoch", err)
	}
	t.Log(err)
}
