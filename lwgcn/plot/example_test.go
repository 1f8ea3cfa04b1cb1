package plot_test

import (
	"fmt"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

func ExampleTable_Markdown() {
	t := plot.NewTable("Accuracy (%), mean ± std over 10 splits").
		Groups(plot.Group{Label: "", Span: 1}, plot.Group{Label: "Heterophilic", Span: 2}).
		Header("Model", "Chameleon", "Texas").
		Row(plot.Text("GCN"), plot.MeanStd(64.82, 2.24, 1), plot.MeanStd(55.14, 5.16, 1)).
		Row(plot.Text("H2GCN"), plot.MeanStd(60.11, 2.15, 1), plot.MeanStd(84.86, 7.23, 1)).
		Row(plot.Text("LW-GCN"), plot.MeanStd(68.31, 1.80, 1), plot.Text("OOM")).
		MarkBest(plot.Higher).
		Footer(plot.Provenance("abc123", "go (SIMD)", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)))
	fmt.Print(t.Markdown())
	// Output:
	// **Accuracy (%), mean ± std over 10 splits**
	//
	// | Model | Heterophilic: Chameleon | Heterophilic: Texas |
	// |:---|---:|---:|
	// | GCN | <ins>64.8 ± 2.2</ins> | <ins>55.1 ± 5.2</ins> |
	// | H2GCN | 60.1 ± 2.1 | **84.9 ± 7.2** |
	// | LW-GCN | **68.3 ± 1.8** | OOM |
	//
	// _commit abc123, backend go (SIMD), 2026-11-21_
}

func ExampleNewLine() {
	p := plot.NewLine("Accuracy vs homophily").XLabel("h").YLabel("accuracy (%)").
		Add(plot.Series{Name: "GCN", X: []float64{0, 0.5, 1}, Y: []float64{60, 70, 90}, Err: []float64{2, 2, 1}}).
		VLine(0.2, "h = 1/C")
	svg := p.SVG()
	fmt.Println(svg[:4], len(svg) > 1000)
	// Output: <svg true
}
