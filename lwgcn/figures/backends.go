package figures

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// PyTorchThreads are the authors' PyTorch code's full-epoch times, ms, at
// one and two threads ([0], [1]); 0 where not measured.
type PyTorchThreads map[string][2]float64

// BackendSpeedTable compares backends on `lwgcn bench -backends` timings:
// one row per dataset, case and thread count, with each backend's
// steady-state ms/epoch (wall, and process CPU time in parentheses: the
// steadier figure on a shared machine), compile time and peak resident
// memory (the process's, reset before each case), and for the full LW-GCN epoch the
// authors' PyTorch time at the same number of threads divided by each
// backend's (above 1: faster than PyTorch). Backends are ordered "go"
// first, then by name; a failed timing shows its error. With two backends, a
// last column names the faster per epoch and, when it compiles slower,
// after how many epochs its per-epoch saving pays for the extra compile
// (FasterBackend). With pytorch nil (timings from another machine than
// PyTorch's), the PyTorch columns are left out.
func BackendSpeedTable(caption string, rows []results.BackendBench, pytorch PyTorchThreads, datasetTitle func(string) string,
	order []string) *plot.Table {
	if datasetTitle == nil {
		datasetTitle = func(s string) string { return s }
	}
	var backends []string
	for _, r := range rows {
		if !slices.Contains(backends, r.Backend) {
			backends = append(backends, r.Backend)
		}
	}
	sort.Slice(backends, func(i, j int) bool {
		if (backends[i] == "go") != (backends[j] == "go") {
			return backends[i] == "go"
		}
		return backends[i] < backends[j]
	})
	header := []string{"dataset", "case", "threads"}
	for _, b := range backends {
		header = append(header, b+" ms/epoch (CPU ms)", b+" compile (s)", b+" peak RSS")
	}
	if pytorch != nil {
		header = append(header, "PyTorch ms/epoch")
		for _, b := range backends {
			header = append(header, "PyTorch ÷ "+b)
		}
	}
	if len(backends) == 2 {
		header = append(header, "faster per epoch")
	}
	t := plot.NewTable(caption).Header(header...)

	type key struct {
		dataset, cas string
		threads      int
	}
	byKey := map[key]map[string]results.BackendBench{}
	var keys []key
	for _, r := range rows {
		k := key{r.Dataset, r.Case, r.Threads()}
		if byKey[k] == nil {
			byKey[k] = map[string]results.BackendBench{}
			keys = append(keys, k)
		}
		byKey[k][r.Backend] = r
	}
	rank := func(d string) int {
		if i := slices.Index(order, d); i >= 0 {
			return i
		}
		return len(order)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.dataset != b.dataset {
			if rank(a.dataset) != rank(b.dataset) {
				return rank(a.dataset) < rank(b.dataset)
			}
			return a.dataset < b.dataset
		}
		if (a.cas == results.CaseEpoch) != (b.cas == results.CaseEpoch) {
			return a.cas == results.CaseEpoch
		}
		if a.cas != b.cas {
			return a.cas < b.cas
		}
		return a.threads < b.threads
	})
	for _, k := range keys {
		cells := []plot.Cell{plot.Text(datasetTitle(k.dataset)), plot.Text(k.cas), plot.Num(float64(k.threads), 0)}
		for _, b := range backends {
			r, ok := byKey[k][b]
			switch {
			case !ok:
				cells = append(cells, plot.Text("not run"), plot.Text("–"), plot.Text("–"))
			case r.Error != "":
				cells = append(cells, plot.Text("error: "+r.Error), plot.Text("–"), plot.Text("–"))
			default:
				rss := plot.Text("–")
				if r.PeakRSS > 0 {
					rss = plot.Text(fmt.Sprintf("%.0f MiB", float64(r.PeakRSS)/(1<<20)))
				}
				cells = append(cells, plot.Text(fmt.Sprintf("%.1f (%.1f)", r.MsPerEpoch, r.CPUMs)), plot.Num(r.CompileSecs, 2), rss)
			}
		}
		if pytorch != nil {
			cells = append(cells, pytorchCells(pytorch, k.dataset, k.cas, k.threads, backends, byKey[k])...)
		}
		if len(backends) == 2 {
			cells = append(cells, plot.Text(FasterBackend(byKey[k][backends[0]], byKey[k][backends[1]])))
		}
		t.Row(cells...)
	}
	if f := backendProvenance(rows, backends); f != "" {
		t.Footer(f)
	}
	return t
}

// backendProvenance is the footer of a backend table: the latest row's
// provenance when every row comes from one commit and machine, else each
// backend's latest, naming the other commits its older rows were measured
// at, so that a ratio between rows of different commits is visible as such.
func backendProvenance(rows []results.BackendBench, backends []string) string {
	latest := map[string]results.Provenance{}
	commits := map[string][]string{}
	var all results.Provenance
	same := true
	for i, r := range rows {
		p := r.Provenance
		if p.Date >= latest[r.Backend].Date {
			latest[r.Backend] = p
		}
		if p.Date >= all.Date {
			all = p
		}
		c := p.ShortCommit()
		if !slices.Contains(commits[r.Backend], c) {
			commits[r.Backend] = append(commits[r.Backend], c)
		}
		if i > 0 && (p.Commit != rows[0].Provenance.Commit || p.Dirty != rows[0].Provenance.Dirty || p.Machine != rows[0].Provenance.Machine) {
			same = false
		}
	}
	if all.Date == "" {
		return ""
	}
	if same {
		return all.String()
	}
	var parts []string
	for _, b := range backends {
		p := latest[b]
		s := p.String()
		var older []string
		for _, c := range commits[b] {
			if c != p.ShortCommit() {
				older = append(older, c)
			}
		}
		if len(older) > 0 {
			s += " (older rows: commit " + strings.Join(older, ", ") + ")"
		}
		parts = append(parts, b+" rows: "+s)
	}
	return strings.Join(parts, "; ")
}

// FasterBackend compares two timings of one case: the backend with the
// shorter steady-state epoch and its speed-up, e.g. "xla:cpu 1.30×", and
// when that backend also compiles slower, the run length from which it is
// faster overall: the compile difference divided by the per-epoch saving,
// e.g. "xla:cpu 1.30× (from 812 epochs)". "–" when either is missing or
// failed.
func FasterBackend(a, b results.BackendBench) string {
	if a.Backend == "" || b.Backend == "" || a.Error != "" || b.Error != "" || !(a.MsPerEpoch > 0) || !(b.MsPerEpoch > 0) {
		return "–"
	}
	fast, slow := a, b
	if b.MsPerEpoch < a.MsPerEpoch {
		fast, slow = b, a
	}
	out := fmt.Sprintf("%s %.2f×", fast.Backend, slow.MsPerEpoch/fast.MsPerEpoch)
	if extra := fast.CompileSecs - slow.CompileSecs; extra > 0 {
		saving := (slow.MsPerEpoch - fast.MsPerEpoch) / 1000
		out += fmt.Sprintf(" (from %.0f epochs)", math.Ceil(extra/saving))
	}
	return out
}

// pytorchCells are the PyTorch time of a row and its ratio to each backend's.
func pytorchCells(pytorch PyTorchThreads, dataset, cas string, threads int, backends []string,
	byBackend map[string]results.BackendBench) []plot.Cell {
	var cells []plot.Cell
	pt := 0.0
	if cas == results.CaseEpoch && threads >= 1 && threads <= 2 {
		pt = pytorch[dataset][threads-1]
	}
	if pt > 0 {
		cells = append(cells, plot.Num(pt, 1))
	} else {
		cells = append(cells, plot.Text("–"))
	}
	for _, b := range backends {
		r, ok := byBackend[b]
		if pt > 0 && ok && r.Error == "" {
			cells = append(cells, plot.Text(fmt.Sprintf("%.1f×", pt/r.MsPerEpoch)))
		} else {
			cells = append(cells, plot.Text("–"))
		}
	}
	return cells
}
