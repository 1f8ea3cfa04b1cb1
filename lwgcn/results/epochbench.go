package results

import "errors"

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
	return readRows(path, false, checkEpochBench)
}

// ParseEpochBench reads and checks the content of a bench-lwgcn.json file
// (path names it in errors).
func ParseEpochBench(path string, data []byte) ([]EpochBench, error) {
	return parseRows(path, data, checkEpochBench)
}

func checkEpochBench(r *EpochBench) error {
	if r.Dataset == "" || !(r.MsPerEpoch > 0) {
		return errors.New("has no dataset or no positive ms_per_epoch")
	}
	return nil
}
