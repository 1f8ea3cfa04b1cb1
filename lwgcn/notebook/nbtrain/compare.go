package nbtrain

import (
	"context"
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// Compare returns a function that trains each of methods (names of
// experiments.Methods) for epochs epochs on split 0 of a graph with seed,
// with one progress bar over all of them, and returns their accuracies as a
// table and a bar chart. It is the synthetic explorer's training button
// (explore.TrainFunc).
func Compare(methods []string, epochs int, seed int64) func(g *graph.Graph) (*notebook.View, error) {
	return func(g *graph.Graph) (*notebook.View, error) {
		if len(g.Splits()) == 0 {
			return nil, fmt.Errorf("nbtrain: graph %q has no splits", g.Name())
		}
		b, info, err := backend.Shared()
		if err != nil {
			return nil, err
		}
		bar := New(len(methods)*epochs, "training on "+g.Name())
		defer bar.Done()
		t := plot.NewTable(fmt.Sprintf("%s, split 0, seed %d, %d epochs: accuracy (%%)", g.Name(), seed, epochs)).
			Header("method", "test", "validation", "train", "best epoch")
		test := plot.Series{Name: "test accuracy (%)"}
		var names []string
		for _, name := range methods {
			m, err := experiments.NewMethod(name, experiments.Env{Backend: b, Info: info, Graph: g, Dataset: g.Name(),
				Progress: bar, Override: experiments.Overrides{Epochs: epochs}})
			if err != nil {
				return nil, err
			}
			o, err := m.Run(context.Background(), 0, seed)
			if err != nil {
				return nil, fmt.Errorf("nbtrain: %s on %q: %w", name, g.Name(), err)
			}
			title := experiments.MethodTitle(name)
			t.Row(plot.Text(title), plot.Num(100*o.TestAcc, 1), plot.Num(100*o.ValAcc, 1), plot.Num(100*o.TrainAcc, 1), plot.Num(float64(o.BestEpoch), 0))
			names = append(names, title)
			test.Y = append(test.Y, 100*o.TestAcc)
		}
		t.MarkBest(plot.Higher, 1, 2, 3)
		fig := plot.NewBars(g.Name()+": test accuracy").Groups(names...).Add(test).YLabel("test accuracy (%)").YRange(0, 100).ValueLabels("%.1f").Size(420, 300)
		return notebook.NewView().Table(t).Plot(fig), nil
	}
}
