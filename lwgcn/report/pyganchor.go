package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// PyGAnchorMarkdown renders results/bench-pyg.json (`lwgcn pyg-anchor`):
// GCN, GAT and GCNII epochs on lwgcn against PyTorch Geometric's, whose
// fastest variant the fused-kernels issue's goal compares with; then the
// same comparison run on other hosts (results/bench-pyg-<host>.json), each
// a table of its own (timings compare within one run only); "" when
// bench-pyg.json is absent. docs/RESULTS.md and notebook 05 show it.
func PyGAnchorMarkdown(dir string) (string, error) {
	rows, ok, err := readBench(dir, "bench-pyg", results.ReadPyGAnchor)
	if !ok {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Speed: against PyTorch Geometric\n\n")
	b.WriteString("The same training epochs (forward with dropout, NLL on the training nodes, backward, Adam, an evaluation\n")
	b.WriteString("forward, the statistics read back) timed by `lwgcn bench-batched -runs 1` (the runs alone, pure-Go backend)\n")
	b.WriteString("and by PyTorch Geometric on PyTorch (CPU) with ../shared/anchors/pyg, one after the other on one quiet\n")
	b.WriteString("machine; `lwgcn pyg-anchor` joins the two. PyG runs in four variants (adjacency as\n")
	b.WriteString("`edge_index` or CSR, features dense or sparse); *PyG fastest* is the fastest of them, the goal's comparison\n")
	b.WriteString("(lwgcn faster than it at equal threads); *PyG usual* is `edge_index` with dense features, what most PyG code runs.\n")
	b.WriteString("Ratios above 1: lwgcn is faster.\n\n")
	b.WriteString(pygTable(rows))
	// Other CPU hosts' runs, then GPU runs (rows with a device) last.
	var gpu strings.Builder
	more, err := otherHostFiles(dir, "bench-pyg", results.ReadPyGAnchor, func(path string, rows []results.PyGAnchor) (string, error) {
		if slices.ContainsFunc(rows, func(r results.PyGAnchor) bool { return r.Device != "" }) {
			fmt.Fprintf(&gpu, "\nOn a GPU (results/%s, xla/gpu-check.sh step 5): the same epochs, lwgcn on XLA CUDA and PyG with\n"+
				"every tensor on CUDA (xla/pyg_gpu.py runs the anchor's pyg_bench.py); threads are lwgcn's host threads\n"+
				"(PyTorch's are in the footer), which matter little here:\n\n%s", filepath.Base(path), pygTable(rows))
			return "", nil
		}
		return fmt.Sprintf("\nThe same comparison in another run (results/%s; host in its footer):\n\n%s", filepath.Base(path), pygTable(rows)), nil
	})
	if err != nil {
		return "", err
	}
	b.WriteString(more)
	b.WriteString(gpu.String())
	return b.String(), nil
}

// pygTable is one bench-pyg file's table, its count of rows where lwgcn
// is faster and its provenance footer.
func pygTable(rows []results.PyGAnchor) string {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		if a.Dataset != b.Dataset {
			return orderOf(a.Dataset) < orderOf(b.Dataset)
		}
		return a.Threads < b.Threads
	})
	var b strings.Builder
	b.WriteString("| model | dataset | threads | lwgcn ms | PyG fastest ms (variant) | PyG fastest / lwgcn | PyG usual ms | PyG usual / lwgcn | lwgcn faster than PyG's fastest |\n")
	b.WriteString("|:---|:---|---:|---:|---:|---:|---:|---:|:-:|\n")
	machines, versions, commits := map[string]bool{}, map[string]bool{}, map[string]bool{}
	devices := map[string]bool{} // "NVIDIA H200 (lwgcn xla:..., PyTorch 16 threads)"
	met, total := 0, 0
	for _, r := range rows {
		f := r.Fastest()
		usual, usualRatio := "–", "–"
		if u, ok := r.Variant("edge_index", "dense"); ok {
			usual, usualRatio = fmt.Sprintf("%.2f", u.Ms), fmt.Sprintf("%.2fx", u.Ms/r.LwgcnMs)
		}
		faster := f.Ms > r.LwgcnMs
		total++
		if faster {
			met++
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %.2f | %.2f (%s, %s features) | %.2fx | %s | %s | %s |\n", strings.ToUpper(r.Model),
			experiments.DatasetTitle(r.Dataset), r.Threads, r.LwgcnMs, f.Ms, f.Adj, f.X, f.Ms/r.LwgcnMs, usual, usualRatio, yesNo(faster))
		machines[r.Machine], versions[fmt.Sprintf("torch %s, PyG %s", r.Torch, r.PyGVersion)], commits[results.ShortHash(r.Commit)] = true, true, true
		if r.Device != "" {
			devices[fmt.Sprintf("%s (lwgcn %s, PyTorch %d host threads)", r.Device, r.Backend, r.PyGThreads)] = true
		}
	}
	fmt.Fprintf(&b, "\nlwgcn faster than PyG's fastest variant in %d of %d rows.\n\n", met, total)
	device := ""
	if len(devices) > 0 {
		device = "; device: " + strings.Join(sortedKeys(devices), ", ")
	}
	fmt.Fprintf(&b, "_lwgcn: commit %s; PyG: %s; machine: %s%s_\n", strings.Join(sortedKeys(commits), ", "),
		strings.Join(sortedKeys(versions), ", "), strings.Join(sortedKeys(machines), ", "), device)
	return b.String()
}

// orderOf is a dataset's position in Table 2 (others after, by name).
func orderOf(dataset string) string {
	if i := slices.Index(experiments.Table2Datasets, dataset); i >= 0 {
		return fmt.Sprintf("%03d", i)
	}
	return "999" + dataset
}
