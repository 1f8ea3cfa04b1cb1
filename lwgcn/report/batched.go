package report

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// BatchedBenchFile is results/bench-batched.json, written by
// `lwgcn bench-batched`: split-epoch times of R runs trained in one
// compiled computation (the runs axis of package train) beside the same model one
// run at a time.
type BatchedBenchFile struct {
	// Models describes what each row's model name times.
	Models map[string]string `json:"models"`
	// Notes says, per model, under which conditions it was measured (e.g. a
	// shared machine).
	Notes map[string]string `json:"notes"`
	Rows  []BatchedBenchRow `json:"rows"`
}

// BatchedBenchRow is one dataset at one thread count. Times are medians
// over Blocks alternating blocks (batched, alone, batched, ...), each a
// fresh process measuring for a minimum time; a split-epoch is one run
// trained one epoch (a batch's epoch divided by its runs).
type BatchedBenchRow struct {
	// Model is "lwgcn" (the full method's epoch) or "gcn".
	Model   string `json:"model"`
	Dataset string `json:"dataset"`
	// Procs is GOMAXPROCS; Runs the batch size; Blocks the blocks per mode.
	Procs  int `json:"gomaxprocs"`
	Runs   int `json:"runs_per_batch"`
	Blocks int `json:"blocks"`
	// Wall and process CPU ms per split-epoch, batched and alone.
	BatchedMs    float64 `json:"batched_ms_per_split_epoch"`
	AloneMs      float64 `json:"alone_ms_per_split_epoch"`
	BatchedCPUMs float64 `json:"batched_cpu_ms_per_split_epoch"`
	AloneCPUMs   float64 `json:"alone_cpu_ms_per_split_epoch"`
	// Peak resident memory of the measuring process (largest block).
	BatchedPeakRSS uint64 `json:"batched_peak_rss_bytes"`
	AlonePeakRSS   uint64 `json:"alone_peak_rss_bytes"`
	// AuthorsMs is the authors' full LW-GCN epoch at this thread count
	// (AuthorsEpochMs), 0 where none is known.
	AuthorsMs  float64            `json:"authors_lwgcn_ms_per_epoch"`
	Provenance results.Provenance `json:"provenance"`
}

// AuthorsEpochMs are the batched-runs issue's figures: one full LW-GCN
// epoch of the authors' PyTorch code (GCNII-64 f_G on Cora) on this kind of
// machine, at 1 and 2 threads.
var AuthorsEpochMs = map[string][2]float64{
	"texas": {19.4, 18.3}, "chameleon": {393, 284}, "squirrel": {1757, 1156}, "cora": {527, 512},
}

// AuthorsMs returns AuthorsEpochMs at procs threads (1 or 2), 0 otherwise.
func AuthorsMs(dataset string, procs int) float64 {
	if procs < 1 || procs > 2 {
		return 0
	}
	return AuthorsEpochMs[dataset][procs-1]
}

// ReadBatchedBench reads and checks a bench-batched.json file.
func ReadBatchedBench(path string) (*BatchedBenchFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return ParseBatchedBench(path, data)
}

// ParseBatchedBench reads and checks the content of a bench-batched.json
// file (path names it in errors).
func ParseBatchedBench(path string, data []byte) (*BatchedBenchFile, error) {
	var f BatchedBenchFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("report: %s: %w", path, err)
	}
	for i, r := range f.Rows {
		if r.Model == "" || r.Dataset == "" || !(r.BatchedMs > 0) || !(r.AloneMs > 0) || r.Runs < 1 || r.Procs < 1 {
			return nil, fmt.Errorf("report: %s: row %d lacks a model, a dataset, positive times, runs or gomaxprocs", path, i)
		}
	}
	return &f, nil
}

// batchedSpeedSection renders results/bench-batched.json, if present.
func batchedSpeedSection(dir string) (string, error) {
	f, ok, err := readBench(dir, "bench-batched", ReadBatchedBench)
	if !ok {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Speed: batched runs (time per split-epoch)\n\n")
	b.WriteString("A split-epoch is one run (split, seed) trained one epoch. *Batched* trains the runs of a batch in\n")
	b.WriteString("one compiled computation (the runs axis of `lwgcn/train`; each run gives the same result as alone, tested),\n")
	b.WriteString("*alone* one run at a time; `lwgcn bench-batched` takes medians of alternating blocks, each block a\n")
	b.WriteString("fresh process. The authors' column is their full LW-GCN epoch (f_G a GCNII-64 on Cora) on this kind\n")
	b.WriteString("of machine, from the batched-runs issue; its ratio is meaningful for the lwgcn rows (the same\n")
	b.WriteString("epoch) and only indicative for the other models' rows (a different, usually smaller, epoch).\n")
	b.WriteString("`reproduce` and `sweep` batch by default (`-batch 0`) the models measured faster batched here:\n")
	b.WriteString("GCN, GAT, MLP, GCNII up to zoo.GCNIIAutoBatchMaxWork (layers x nodes x hidden; Cora's and\n")
	b.WriteString("Citeseer's deep GCNIIs are slower batched and run alone), GPRGNN from\n")
	b.WriteString("zoo.GPRGNNAutoBatchMinEdges edges and FAGCN from zoo.FAGCNAutoBatchMinEdges;\n")
	b.WriteString("not LW-GCN on a CPU (not faster batched), which is batched on a GPU (cheaper per split-epoch there:\n")
	b.WriteString("\"Table 2's LW-GCN row on a GPU\" against the GPU speed table's one-run epoch). The other baselines run\n")
	b.WriteString("alone unless `-batch N` asks for batches.\n")
	var models []string
	for _, r := range f.Rows {
		if !slices.Contains(models, r.Model) {
			models = append(models, r.Model)
		}
	}
	for _, m := range models {
		var prov results.Provenance
		fmt.Fprintf(&b, "\n**%s**: %s.", m, f.Models[m])
		if n := f.Notes[m]; n != "" {
			fmt.Fprintf(&b, " %s", n)
		}
		b.WriteString("\n\n| dataset | threads | runs/batch | batched ms | alone ms | batched speed-up | batched CPU ms | alone CPU ms | peak RSS batched / alone | authors' LW-GCN ms | authors / batched |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, r := range f.Rows {
			if r.Model != m {
				continue
			}
			prov = r.Provenance
			auth, ratio := "–", "–"
			if r.AuthorsMs > 0 {
				auth, ratio = fmt.Sprintf("%g", r.AuthorsMs), fmt.Sprintf("%.1fx", r.AuthorsMs/r.BatchedMs)
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %.2f | %.2f | %.2fx | %.2f | %.2f | %.0f / %.0f MiB | %s | %s |\n",
				r.Dataset, r.Procs, r.Runs, r.BatchedMs, r.AloneMs, r.AloneMs/r.BatchedMs, r.BatchedCPUMs, r.AloneCPUMs,
				float64(r.BatchedPeakRSS)/(1<<20), float64(r.AlonePeakRSS)/(1<<20), auth, ratio)
		}
		fmt.Fprintf(&b, "\n%s\n", prov)
	}
	return b.String(), nil
}
