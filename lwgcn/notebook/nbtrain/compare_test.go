package nbtrain

import (
	"context"
	"errors"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/synth"
)

func TestCompareTrainsEveryMethod(t *testing.T) {
	cfg := synth.DefaultCSBMConfig()
	cfg.NumNodes, cfg.NumClasses, cfg.NumFeatures = 120, 3, 8
	cfg.HeterophilyWeights = nil
	cfg.Splits = synth.SplitOptions{NumSplits: 1}
	c, err := synth.GenerateCSBM(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	view, err := Compare([]string{"mlp", "gcn"}, 3, 5)(task(context.Background()), c.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if view.Len() != 2 {
		t.Fatalf("%d parts, want table and figure", view.Len())
	}
	block := view.HTMLBlock()
	for _, title := range []string{"MLP", "GCN"} {
		m := regexp.MustCompile(`>` + title + `</td><td[^>]*>(?:<[^>]+>)*([0-9.]+)`).FindStringSubmatch(block)
		if m == nil {
			t.Fatalf("no %s row with a test accuracy in %s", title, block)
		}
		if acc, _ := strconv.ParseFloat(m[1], 64); acc < 0 || acc > 100 {
			t.Errorf("%s test accuracy %v", title, acc)
		}
	}
	if !strings.Contains(block, "3 epochs") {
		t.Error("caption lacks the epochs")
	}

	g, err := c.Graph.WithSplits(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compare([]string{"mlp"}, 3, 5)(task(context.Background()), g); err == nil || !strings.Contains(err.Error(), "has no splits") {
		t.Errorf("no splits: %v", err)
	}
}

func task(ctx context.Context) *notebook.Task {
	return notebook.NewTask(ctx, notebook.DefaultValues(nil))
}

// countCtx is a context whose Err counts its calls and reports
// context.Canceled from call limit+1 on (limit < 0: never).
type countCtx struct {
	context.Context
	mu       sync.Mutex
	n, limit int
	done     chan struct{}
}

func newCountCtx(limit int) *countCtx {
	return &countCtx{Context: context.Background(), limit: limit, done: make(chan struct{})}
}

func (c *countCtx) Done() <-chan struct{} { return c.done }

func (c *countCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.limit >= 0 && c.n > c.limit {
		if c.n == c.limit+1 {
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

// TestCompareStoppedKeepsFinishedModels: cancelled while the second model
// trains (the context turns cancelled right after as many checks as the
// first model makes alone), Compare returns the first model's row and the
// context's error.
func TestCompareStoppedKeepsFinishedModels(t *testing.T) {
	cfg := synth.DefaultCSBMConfig()
	cfg.NumNodes, cfg.NumClasses, cfg.NumFeatures = 120, 3, 8
	cfg.HeterophilyWeights = nil
	cfg.Splits = synth.SplitOptions{NumSplits: 1}
	c, err := synth.GenerateCSBM(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	alone := newCountCtx(-1)
	if _, err := Compare([]string{"mlp"}, 3, 5)(task(alone), c.Graph); err != nil {
		t.Fatal(err)
	}
	view, err := Compare([]string{"mlp", "gcn"}, 3, 5)(task(newCountCtx(alone.n)), c.Graph)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if view == nil || view.Len() != 1 {
		t.Fatalf("partial view %v, want the table of the finished model", view)
	}
	block := view.HTMLBlock()
	if !strings.Contains(block, ">MLP</td>") || strings.Contains(block, ">GCN</td>") {
		t.Errorf("partial table should have MLP's row only: %s", block)
	}

	// Cancelled before anything finished: no view, the context's error.
	view, err = Compare([]string{"mlp"}, 3, 5)(task(newCountCtx(0)), c.Graph)
	if !errors.Is(err, context.Canceled) || view != nil {
		t.Errorf("cancelled at once: %v, %v", view, err)
	}
}
