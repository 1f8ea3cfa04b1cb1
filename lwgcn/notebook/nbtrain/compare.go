package nbtrain

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// Compare returns a function that trains each of methods (names of
// experiments.Methods) for epochs epochs on split 0 of a graph with seed and
// returns their accuracies as a table and a bar chart. It is the synthetic
// explorer's training button (explore.TrainFunc): one progress bar for the
// task, labelled with the model training now; after each model the table of
// the finished ones (Task.Partial); cancelled (Stop), it returns that table
// with the context's error.
func Compare(methods []string, epochs int, seed int64) func(t *notebook.Task, g *graph.Graph) (*notebook.View, error) {
	return func(task *notebook.Task, g *graph.Graph) (*notebook.View, error) {
		if len(g.Splits()) == 0 {
			return nil, fmt.Errorf("nbtrain: graph %q has no splits", g.Name())
		}
		b, info, err := backend.Shared()
		if err != nil {
			return nil, err
		}
		ctx := task.Context()
		bar := task.Progress(len(methods)*epochs, "training on "+g.Name())
		progress := Wrap(bar)
		type row struct {
			title                  string
			test, val, train, best float64
		}
		var rows []row
		table := func() *plot.Table {
			t := plot.NewTable(fmt.Sprintf("%s, split 0, seed %d, %d epochs: accuracy (%%)", g.Name(), seed, epochs)).
				Header("method", "test", "validation", "train", "best epoch")
			for _, r := range rows {
				t.Row(plot.Text(r.title), plot.Num(r.test, 1), plot.Num(r.val, 1), plot.Num(r.train, 1), plot.Num(r.best, 0))
			}
			if len(rows) > 1 {
				t.MarkBest(plot.Higher, 1, 2, 3)
			}
			return t
		}
		for i, name := range methods {
			title := experiments.MethodTitle(name)
			bar.SetLabel(fmt.Sprintf("%s (%d of %d) on %s", title, i+1, len(methods), g.Name()))
			m, err := experiments.NewMethod(name, experiments.Env{Backend: b, Info: info, Graph: g, Dataset: g.Name(),
				Progress: progress, Override: experiments.Overrides{Epochs: epochs}})
			if err != nil {
				return nil, err
			}
			o, err := m.Run(ctx, 0, seed)
			if err != nil {
				var done *notebook.View
				if len(rows) > 0 {
					done = notebook.NewView().Table(table())
				}
				if ctx.Err() != nil {
					return done, ctx.Err()
				}
				return done, fmt.Errorf("nbtrain: %s on %q: %w", name, g.Name(), err)
			}
			rows = append(rows, row{title, 100 * o.TestAcc, 100 * o.ValAcc, 100 * o.TrainAcc, float64(o.BestEpoch)})
			task.Partial(notebook.NewView().Table(table()))
		}
		if len(methods) == 1 {
			bar.SetLabel(fmt.Sprintf("%s on %s", experiments.MethodTitle(methods[0]), g.Name()))
		} else {
			bar.SetLabel(fmt.Sprintf("%d models on %s", len(methods), g.Name()))
		}
		bar.Done()
		var names []string
		test := plot.Series{Name: "test accuracy (%)"}
		for _, r := range rows {
			names = append(names, r.title)
			test.Y = append(test.Y, r.test)
		}
		fig := plot.NewBars(g.Name()+": test accuracy").Groups(names...).Add(test).YLabel("test accuracy (%)").YRange(0, 100).ValueLabels("%.1f").Size(420, 300)
		return notebook.NewView().Table(table()).Plot(fig), nil
	}
}
