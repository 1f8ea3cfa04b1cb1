// Command demo writes one example of every plot figure type to a directory,
// for eyeballing layouts (convert with rsvg-convert to check them as PNG).
//
//	go run ./lwgcn/plot/internal/demo -out /tmp/plots
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

func main() {
	out := flag.String("out", "plots", "directory to write the SVG files and table.html/table.md to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	figs := map[string]plot.Figure{
		"line_accuracy_vs_h.svg":      accuracyVsH(rng),
		"facets_discriminability.svg": discriminability(rng),
		"hist_cosine.svg":             cosineHistogram(rng),
		"hist_steps.svg":              cosineHistogram(rng).Steps(),
		"heatmap_compat.svg":          compatibility(),
		"heatmap_diverging.svg":       neighbourSimilarity(rng),
		"bars_ablation.svg":           ablation(),
		"scatter_selection.svg":       selection(rng),
		"line_logy_depth.svg":         depth(),
		"edge_cases.svg":              edgeCases(),
		"bars_many.svg":               manyBars(),
		"line_busy_legend.svg":        busy(),
	}
	for name, f := range figs {
		if err := writeFile(filepath.Join(*out, name), f.SVG()); err != nil {
			log.Fatal(err)
		}
	}
	t := table()
	page := "<!doctype html><html><head><meta charset=\"utf-8\"><title>lwgcn table</title></head><body>\n" + t.HTML() + "</body></html>\n"
	if err := writeFile(filepath.Join(*out, "table.html"), page); err != nil {
		log.Fatal(err)
	}
	if err := writeFile(filepath.Join(*out, "table.md"), t.Markdown()); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %d figures and a table to %s\n", len(figs), *out)
}

// writeFile writes through a temporary file and a rename.
func writeFile(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func linspace(lo, hi float64, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return x
}

func accuracyVsH(rng *rand.Rand) *plot.LinePlot {
	h := linspace(0, 1, 11)
	p := plot.NewLine("Accuracy vs homophily (synthetic graphs, C = 5)").
		XLabel("edge homophily h").YLabel("test accuracy (%)").VLine(0.2, "h = 1/C")
	models := []struct {
		name   string
		f      func(h float64) float64
		dashed bool
	}{
		{"MLP", func(h float64) float64 { return 72 }, true},
		{"GCN", func(h float64) float64 { return 40 + 58*math.Abs(h-0.2)/0.8 }, false},
		{"H2GCN", func(h float64) float64 { return 70 + 25*math.Abs(h-0.3) }, false},
		{"LW-GCN", func(h float64) float64 { return 78 + 20*math.Abs(h-0.25) }, false},
	}
	for _, m := range models {
		y, e := make([]float64, len(h)), make([]float64, len(h))
		for i, hv := range h {
			y[i] = math.Min(99, m.f(hv)+rng.NormFloat64())
			e[i] = 1 + 2*rng.Float64()
		}
		p.Add(plot.Series{Name: m.name, X: h, Y: y, Err: e, Markers: true, Dashed: m.dashed})
	}
	return p
}

func discriminability(rng *rand.Rand) *plot.Facets {
	f := plot.NewFacets("Discriminability vs homophily (lines: closed form, markers: Monte Carlo ± std)")
	for k, d := range []int{5, 10, 20} {
		p := plot.NewLine(fmt.Sprintf("d = %d", d)).XLabel("h").VLine(0.5, "h = 1/C")
		if k == 0 {
			p.YLabel("discriminability")
		}
		hs := linspace(0, 1, 101)
		for j, deg := range []float64{2, 8, 32} {
			y := make([]float64, len(hs))
			for i, h := range hs {
				y[i] = math.Sqrt(float64(d)) * math.Abs(2*h-1) * deg / (deg + 4)
			}
			p.Add(plot.Series{Name: fmt.Sprintf("closed form, deg %g", deg), X: hs, Y: y, Color: plot.Color(j)})
			hm := linspace(0, 1, 11)
			ym, em := make([]float64, len(hm)), make([]float64, len(hm))
			for i, h := range hm {
				ym[i] = math.Sqrt(float64(d))*math.Abs(2*h-1)*deg/(deg+4) + 0.05*rng.NormFloat64()
				em[i] = 0.1 + 0.05*rng.Float64()
			}
			// Monte Carlo markers share the line's colour and stay out of the legend.
			p.Add(plot.Series{X: hm, Y: ym, Err: em, NoLine: true, Color: plot.Color(j), Shape: plot.Circle})
		}
		f.Add(p)
	}
	return f.Size(960, 380)
}

func cosineHistogram(rng *rand.Rand) *plot.Histogram {
	intra, inter := make([]float64, 4000), make([]float64, 4000)
	for i := range intra {
		intra[i] = math.Tanh(0.55 + 0.35*rng.NormFloat64())
		inter[i] = math.Tanh(0.15 + 0.3*rng.NormFloat64())
	}
	return plot.NewHistogram("Cosine similarity of node pairs (Chameleon)").
		XLabel("cosine similarity of aggregated features").
		Add("intra-class pairs", intra).Add("inter-class pairs", inter).Bins(40).Range(-1, 1)
}

func compatibility() *plot.Heatmap {
	m := [][]float64{
		{0.21, 0.35, 0.18, 0.14, 0.12},
		{0.33, 0.19, 0.22, 0.15, 0.11},
		{0.17, 0.23, 0.28, 0.19, 0.13},
		{0.12, 0.16, 0.20, 0.31, 0.21},
		{0.10, 0.12, 0.15, 0.24, math.NaN()},
	}
	return plot.NewHeatmap("Class compatibility matrix (Squirrel)", m).
		Rows("0", "1", "2", "3", "4").Cols("0", "1", "2", "3", "4").
		XLabel("neighbour class").YLabel("node class").ColorLabel("fraction of edges").Annotate("%.2f")
}

func neighbourSimilarity(rng *rand.Rand) *plot.Heatmap {
	names := []string{"Cora", "Citeseer", "Pubmed", "Chameleon", "Squirrel", "Actor", "Cornell", "Texas", "Wisconsin"}
	m := make([][]float64, len(names))
	for i := range m {
		m[i] = make([]float64, len(names))
		for j := range m[i] {
			m[i][j] = math.Round((0.8*math.Cos(float64(i-j)*0.7)+0.1*rng.NormFloat64())*100) / 100
		}
	}
	return plot.NewHeatmap("Neighbour-similarity difference (intra − inter)", m).
		Rows(names...).Cols(names...).Diverging(0).Annotate("%.1f").ColorLabel("difference")
}

func ablation() *plot.Bars {
	return plot.NewBars("Ablation of LW-GCN components").
		Groups("Chameleon", "Squirrel", "Actor", "Cornell", "Texas").
		YLabel("test accuracy (%)").
		Add(plot.Series{Name: "LW-GCN", Y: []float64{68.3, 55.1, 36.8, 86.2, 87.3}, Err: []float64{1.8, 1.5, 1.0, 5.8, 4.9}}).
		Add(plot.Series{Name: "w/o label-wise aggregation", Y: []float64{60.2, 44.3, 35.2, 80.1, 81.0}, Err: []float64{2.1, 1.9, 1.1, 6.2, 5.3}}).
		Add(plot.Series{Name: "w/o model selection", Y: []float64{66.9, 53.0, 34.1, 83.5, math.NaN()}, Err: []float64{1.7, 1.4, 0.9, 6.0, 0}}).
		ValueLabels("%.1f")
}

// busy has data in every corner, so the legend moves outside.
func busy() *plot.LinePlot {
	p := plot.NewLine("Validation accuracy per epoch").XLabel("epoch").YLabel("accuracy")
	for k, name := range []string{"lr 0.001", "lr 0.005", "lr 0.01", "lr 0.05", "lr 0.1"} {
		x, y := make([]float64, 200), make([]float64, 200)
		for i := range x {
			x[i] = float64(i)
			y[i] = 0.5 + 0.45*math.Sin(float64(i)/30+float64(k))
		}
		p.Add(plot.Series{Name: name, X: x, Y: y})
	}
	return p
}

func manyBars() *plot.Bars {
	b := plot.NewBars("Accuracy of every model on every dataset").YLabel("test accuracy (%)").
		Groups("Cora", "Citeseer", "Pubmed", "Chameleon", "Squirrel").ValueLabels("%.1f").Size(720, 400)
	for i, m := range []string{"MLP", "GCN", "GAT", "H2GCN", "GPRGNN", "LW-GCN"} {
		y := []float64{75 + float64(i), 74 + float64(i)/2, 86 + float64(i)/3, 46 + 3*float64(i), 30 + 4*float64(i)}
		b.Add(plot.Series{Name: m, Y: y, Err: []float64{1.5, 1.2, 0.4, 2.2, 1.8}})
	}
	return b
}

func selection(rng *rand.Rand) *plot.LinePlot {
	p := plot.NewScatter("Selection weight vs local homophily").
		XLabel("local homophily of node").YLabel("weight of label-wise branch")
	for g, name := range []string{"class 0", "class 1", "class 2"} {
		x, y := make([]float64, 120), make([]float64, 120)
		for i := range x {
			x[i] = rng.Float64()
			y[i] = math.Max(0, math.Min(1, 0.9-0.6*x[i]+0.1*float64(g)-0.05+0.08*rng.NormFloat64()))
		}
		p.Add(plot.Series{Name: name, X: x, Y: y})
	}
	return p.HLine(0.5, "equal weights")
}

func depth() *plot.LinePlot {
	layers := []float64{1, 2, 4, 8, 16, 32, 64}
	return plot.NewLine("Training loss vs depth").XLabel("layers").YLabel("final training loss").LogY().
		Add(plot.Series{Name: "GCN", X: layers, Y: []float64{0.3, 0.2, 0.35, 0.9, 1.4, 1.6, 1.6}, Markers: true}).
		Add(plot.Series{Name: "LW-GCN", X: layers, Y: []float64{0.25, 0.08, 0.03, 0.02, 0.015, 0.012, 0.011}, Markers: true}).
		Add(plot.Series{Name: "GCNII", X: layers, Y: []float64{0.3, 0.1, 0.05, 0.004, 0.003, 0, math.NaN()}, Markers: true, Dashed: true})
}

func edgeCases() *plot.Facets {
	return plot.NewFacets("Edge cases: <NaN & single point>, constant, empty",
		plot.NewLine("NaN gap").Add(plot.Series{Name: "with NaN", Y: []float64{1, 2, math.NaN(), 4, 5}, Markers: true}),
		plot.NewLine("single point").Add(plot.Series{Name: "single", X: []float64{3}, Y: []float64{2.5}, Markers: true}),
		plot.NewLine("constant").Add(plot.Series{Name: "constant", X: []float64{0, 1, 2}, Y: []float64{2, 2, 2}}),
		plot.NewLine("empty").Add(plot.Series{Name: "empty"}),
	).IndependentY()
}

func table() *plot.Table {
	t := plot.NewTable("Node classification accuracy (%), mean ± std over 10 splits").
		Groups(plot.Group{Label: "", Span: 1}, plot.Group{Label: "Homophilic", Span: 2}, plot.Group{Label: "Heterophilic", Span: 3}).
		Header("Model", "Cora", "Citeseer", "Chameleon", "Squirrel", "Texas")
	t.Row(plot.Text("MLP"), plot.MeanStd(75.7, 2.1, 1), plot.MeanStd(74.0, 1.9, 1), plot.MeanStd(46.2, 2.9, 1), plot.MeanStd(28.8, 1.6, 1), plot.MeanStd(80.8, 4.8, 1))
	t.Row(plot.Text("GCN"), plot.MeanStd(86.9, 1.3, 1), plot.MeanStd(76.5, 1.6, 1), plot.MeanStd(64.8, 2.2, 1), plot.MeanStd(53.4, 2.0, 1), plot.MeanStd(55.1, 5.2, 1))
	t.Row(plot.Text("H2GCN"), plot.MeanStd(87.9, 1.2, 1), plot.MeanStd(77.1, 1.6, 1), plot.MeanStd(60.1, 2.1, 1), plot.MeanStd(36.5, 1.9, 1), plot.MeanStd(84.9, 7.2, 1))
	t.Row(plot.Text("LW-GCN <ours>"), plot.MeanStd(87.9, 1.0, 1), plot.MeanStd(77.0, 1.4, 1), plot.MeanStd(68.3, 1.8, 1), plot.MeanStd(55.1, 1.5, 1), plot.Text("OOM"))
	return t.MarkBest(plot.Higher).Footer(plot.Provenance("abc123", "go (SIMD)", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)))
}
