package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
)

// PyGAnchor is one row of results/bench-pyg.json (a JSON list, written by
// `lwgcn pyg-anchor`): one model's training epoch on one dataset at one
// thread count, timed by lwgcn (`lwgcn bench-batched -runs 1`, the runs
// alone) and by PyTorch Geometric on the same epoch
// (../shared/anchors/pyg/pyg_bench.py) in each of its variants (adjacency
// as edge_index or CSR, features dense or sparse).
type PyGAnchor struct {
	Dataset string `json:"dataset"`
	Model   string `json:"model"`
	Threads int    `json:"threads"`
	// LwgcnMs is lwgcn's ms per epoch (the mean per block, median of
	// Blocks blocks), LwgcnCPUMs its CPU time per epoch.
	LwgcnMs    float64 `json:"lwgcn_ms"`
	LwgcnCPUMs float64 `json:"lwgcn_cpu_ms"`
	Blocks     int     `json:"blocks"`
	// PyG holds every PyG variant timed, fastest first.
	PyG []PyGVariant `json:"pyg"`
	// Torch and PyGVersion are the versions pyg_bench.py reported.
	Torch      string `json:"torch"`
	PyGVersion string `json:"pyg_version"`
	// Commit, Backend, Machine and Vector are lwgcn's provenance; both
	// tools ran on that machine, one after the other.
	Commit  string `json:"commit"`
	Backend string `json:"backend"`
	Machine string `json:"machine"`
	Vector  string `json:"vector,omitempty"`
	// Device is the GPU both tools ran on (PyG's tensors on CUDA, lwgcn on
	// XLA CUDA), "" on a CPU; there Threads is lwgcn's host threads
	// (GOMAXPROCS) and PyGThreads PyTorch's, which the rows do not join by.
	Device     string `json:"device,omitempty"`
	PyGThreads int    `json:"pyg_threads,omitempty"`
}

// PyGVariant is one PyG variant's timing.
type PyGVariant struct {
	Adj string `json:"adj"` // "edge_index" or "csr"
	X   string `json:"x"`   // "dense" or "sparse" features
	// Ms is the mean ms per epoch (what pyg_bench.py's README compares),
	// MedianMs its median, CPUMs the CPU time per epoch.
	Ms       float64 `json:"ms"`
	MedianMs float64 `json:"median_ms"`
	CPUMs    float64 `json:"cpu_ms"`
	Epochs   int     `json:"epochs"`
}

// Fastest is PyG's fastest variant (the anchor's goal compares with it).
func (a PyGAnchor) Fastest() PyGVariant { return a.PyG[0] }

// Variant returns the variant with the given adjacency and features.
func (a PyGAnchor) Variant(adj, x string) (PyGVariant, bool) {
	for _, v := range a.PyG {
		if v.Adj == adj && v.X == x {
			return v, true
		}
	}
	return PyGVariant{}, false
}

// pygLine and lwgcnLine are the JSON lines of pyg_bench.py and of the
// anchor's go_bench.sh.
type pygLine struct {
	Tool, Graphs, Dataset, Model, Adj, X string
	Threads                              int
	MsMean                               float64 `json:"ms_mean"`
	MsMedian                             float64 `json:"ms_median"`
	CPUMs                                float64 `json:"cpu_ms_per_epoch"`
	Epochs                               int     `json:"epochs_measured"`
	Torch, PyG                           string
	// Device is the CUDA device pyg_gpu.py ran on ("" or "cpu": the CPU).
	Device string
}

// onGPU reports whether a PyG line ran on a GPU.
func (l pygLine) onGPU() bool { return l.Device != "" && !strings.EqualFold(l.Device, "cpu") }

type lwgcnLine struct {
	Tool, Graphs, Dataset, Model, Commit, Backend, Machine, Vector string
	Threads, Blocks                                                int
	Ms                                                             float64
	CPUMs                                                          float64 `json:"cpu_ms_per_epoch"`
}

// readJSONLines decodes each non-empty line of path into a new T; errors
// name the file and line.
func readJSONLines[T any](path string) ([]T, []int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("results: %w", err)
	}
	var out []T
	var lines []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, nil, fmt.Errorf("results: %s:%d: %w", path, n, err)
		}
		out, lines = append(out, v), append(lines, n)
	}
	return out, lines, sc.Err()
}

// JoinPyGAnchor joins pyg_bench.py's JSON lines (pygPath) with
// go_bench.sh's (lwgcnPath), real graphs only: one row per dataset, model
// and thread count that both timed, sorted. Lines of either file without a
// partner in the other are an error, as are non-positive timings.
func JoinPyGAnchor(pygPath, lwgcnPath string) ([]PyGAnchor, error) {
	pyg, pygLines, err := readJSONLines[pygLine](pygPath)
	if err != nil {
		return nil, err
	}
	lw, lwLines, err := readJSONLines[lwgcnLine](lwgcnPath)
	if err != nil {
		return nil, err
	}
	type key struct {
		dataset, model string
		threads        int
	}
	rows := map[key]*PyGAnchor{}
	for i, l := range lw {
		if l.Graphs != "real" {
			continue
		}
		if l.Tool != "lwgcn" || l.Dataset == "" || l.Model == "" || l.Threads < 1 || !(l.Ms > 0) {
			return nil, fmt.Errorf("results: %s:%d: want an lwgcn timing with dataset, model, threads and ms > 0", lwgcnPath, lwLines[i])
		}
		k := key{l.Dataset, l.Model, l.Threads}
		if rows[k] != nil {
			return nil, fmt.Errorf("results: %s:%d: a second timing of %s %s at %d threads", lwgcnPath, lwLines[i], l.Model, l.Dataset, l.Threads)
		}
		rows[k] = &PyGAnchor{Dataset: l.Dataset, Model: l.Model, Threads: l.Threads, LwgcnMs: l.Ms, LwgcnCPUMs: l.CPUMs,
			Blocks: l.Blocks, Commit: l.Commit, Backend: l.Backend, Machine: l.Machine, Vector: l.Vector}
	}
	for i, l := range pyg {
		if l.Graphs != "real" {
			continue
		}
		if l.Tool != "pyg" || l.Adj == "" || l.X == "" || !(l.MsMean > 0) {
			return nil, fmt.Errorf("results: %s:%d: want a PyG timing with adj, x and ms_mean > 0", pygPath, pygLines[i])
		}
		r := rows[key{l.Dataset, l.Model, l.Threads}]
		if l.onGPU() {
			// On a GPU the threads are the hosts': join by dataset and model.
			var n int
			for k, row := range rows {
				if k.dataset == l.Dataset && k.model == l.Model {
					r, n = row, n+1
				}
			}
			if n > 1 {
				return nil, fmt.Errorf("results: %s:%d: %s %s on %s: %d lwgcn timings in %s, want one", pygPath, pygLines[i], l.Model, l.Dataset, l.Device, n, lwgcnPath)
			}
			if r == nil {
				return nil, fmt.Errorf("results: %s:%d: %s %s on %s has no lwgcn timing in %s", pygPath, pygLines[i], l.Model, l.Dataset, l.Device, lwgcnPath)
			}
			r.Device, r.PyGThreads = l.Device, l.Threads
		}
		if r == nil {
			return nil, fmt.Errorf("results: %s:%d: %s %s at %d threads has no lwgcn timing in %s", pygPath, pygLines[i], l.Model, l.Dataset, l.Threads, lwgcnPath)
		}
		if _, dup := r.Variant(l.Adj, l.X); dup {
			return nil, fmt.Errorf("results: %s:%d: a second timing of %s %s at %d threads (%s, %s features)", pygPath, pygLines[i], l.Model, l.Dataset, l.Threads, l.Adj, l.X)
		}
		r.PyG = append(r.PyG, PyGVariant{Adj: l.Adj, X: l.X, Ms: l.MsMean, MedianMs: l.MsMedian, CPUMs: l.CPUMs, Epochs: l.Epochs})
		r.Torch, r.PyGVersion = l.Torch, l.PyG
	}
	var out []PyGAnchor
	for _, r := range rows {
		if len(r.PyG) == 0 {
			return nil, fmt.Errorf("results: %s: %s %s at %d threads has no PyG timing in %s", lwgcnPath, r.Model, r.Dataset, r.Threads, pygPath)
		}
		sort.SliceStable(r.PyG, func(i, j int) bool { return r.PyG[i].Ms < r.PyG[j].Ms })
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Dataset != b.Dataset {
			return a.Dataset < b.Dataset
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		return a.Threads < b.Threads
	})
	return out, nil
}

// ReadPyGAnchor reads and checks a bench-pyg.json file.
func ReadPyGAnchor(path string) ([]PyGAnchor, error) {
	return readRows(path, false, func(r *PyGAnchor) error {
		if r.Dataset == "" || r.Model == "" || r.Threads < 1 || !(r.LwgcnMs > 0) || len(r.PyG) == 0 {
			return errors.New("has no dataset, model, threads, lwgcn_ms or PyG timings")
		}
		for _, v := range r.PyG {
			if !(v.Ms > 0) {
				return fmt.Errorf("(%s %s, %d threads): PyG variant %s/%s has no positive ms", r.Model, r.Dataset, r.Threads, v.Adj, v.X)
			}
		}
		sort.SliceStable(r.PyG, func(a, b int) bool { return r.PyG[a].Ms < r.PyG[b].Ms })
		return nil
	})
}
