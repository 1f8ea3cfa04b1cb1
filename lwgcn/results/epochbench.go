package results

import (
	"encoding/json"
	"fmt"
	"os"
)

// EpochBench is one measured full LW-GCN epoch on a dataset, as `lwgcn bench`
// records it in results/bench-lwgcn.json (a JSON list).
type EpochBench struct {
	Dataset    string  `json:"dataset"`
	MsPerEpoch float64 `json:"ms_per_epoch"`
	// CPUMs is the process CPU time (all threads) per epoch.
	CPUMs      float64    `json:"cpu_ms_per_epoch"`
	PeakRSS    uint64     `json:"peak_rss_bytes"`
	Epochs     int        `json:"epochs_measured"`
	Provenance Provenance `json:"provenance"`
}

// ReadEpochBench reads and checks a bench-lwgcn.json file.
func ReadEpochBench(path string) ([]EpochBench, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return ParseEpochBench(path, data)
}

// ParseEpochBench reads and checks the content of a bench-lwgcn.json file
// (path names it in errors).
func ParseEpochBench(path string, data []byte) ([]EpochBench, error) {
	var rows []EpochBench
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("results: %s: %w", path, err)
	}
	for i, r := range rows {
		if r.Dataset == "" || !(r.MsPerEpoch > 0) {
			return nil, fmt.Errorf("results: %s: record %d has no dataset or no positive ms_per_epoch", path, i)
		}
	}
	return rows, nil
}
