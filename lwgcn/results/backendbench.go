package results

import (
	"errors"
	"fmt"
	"sort"
)

// CaseEpoch is BackendBench.Case for the full LW-GCN epoch on a real dataset;
// other cases are layer benchmarks on random graphs of a dataset's size
// (train/bench's case names: "gcn", "labelwise-h64", ...).
const CaseEpoch = "lwgcn-epoch"

// BackendBench is one timing of `lwgcn bench -backends ...`
// (results/bench-backends.json, a JSON list): one case on one dataset, on
// one backend, with a given number of threads.
type BackendBench struct {
	Dataset string `json:"dataset"`
	Case    string `json:"case"`
	// Backend is the backend's name ("go", "xla:cpu").
	Backend string `json:"backend"`
	// GOMAXPROCS is Go's thread limit; CPUs the CPUs the process may run on
	// (its affinity mask), which is also the size of XLA CPU's thread pool.
	GOMAXPROCS int `json:"gomaxprocs"`
	CPUs       int `json:"cpus"`
	// CompileSecs is the time to build and compile the epoch graph,
	// excluded from MsPerEpoch (the steady-state epoch, after a warm-up).
	CompileSecs float64 `json:"compile_secs"`
	// LongestCompileSecs is the longest of those graphs alone (0 in files
	// written before it was recorded).
	LongestCompileSecs float64 `json:"longest_compile_secs,omitempty"`
	// Compiles is the number of graphs compiled for the case (the epoch's
	// executables) and EpochOps the op count of its epoch graph (graph
	// nodes, autodiff's included); 0 where not recorded (the layer cases,
	// files written before). EpochHLOBytes is the size of the epoch
	// graph's StableHLO program on XLA (0 on pure Go, which has none).
	Compiles      int     `json:"compiles,omitempty"`
	EpochOps      int     `json:"epoch_ops,omitempty"`
	EpochHLOBytes int     `json:"epoch_hlo_bytes,omitempty"`
	MsPerEpoch    float64 `json:"ms_per_epoch"`
	CPUMs         float64 `json:"cpu_ms_per_epoch"`
	PeakRSS       uint64  `json:"peak_rss_bytes,omitempty"`
	Epochs        int     `json:"epochs_measured"`
	// OtherCores is the average number of CPUs other processes kept busy
	// while this backend's timings were taken (CPUSample.OtherCores over
	// the backend's block); nil in files written before it was recorded.
	OtherCores *float64 `json:"other_cores,omitempty"`
	// Error, when set, says why the case could not be measured.
	Error      string     `json:"error,omitempty"`
	Provenance Provenance `json:"provenance"`
}

// Threads is the number of threads the timing ran with: min(GOMAXPROCS,
// CPUs) on the Go backend, CPUs on XLA (its own pool).
func (r BackendBench) Threads() int {
	if r.Backend == "go" {
		return min(r.GOMAXPROCS, r.CPUs)
	}
	return r.CPUs
}

// Key identifies the timing within the file: a later one with the same key
// replaces it.
func (r BackendBench) Key() string {
	return fmt.Sprintf("%s/%s/%s/threads=%d", r.Dataset, r.Case, r.Backend, r.Threads())
}

// ReadBackendBench reads and checks a bench-backends.json file; a missing
// file is no rows and no error.
func ReadBackendBench(path string) ([]BackendBench, error) {
	return readRows(path, true, checkBackendBench)
}

// ParseBackendBench reads and checks the content of a bench-backends.json
// file (path names it in errors).
func ParseBackendBench(path string, data []byte) ([]BackendBench, error) {
	return parseRows(path, data, checkBackendBench)
}

func checkBackendBench(r *BackendBench) error {
	if r.Dataset == "" || r.Case == "" || r.Backend == "" || r.CPUs <= 0 || r.GOMAXPROCS <= 0 {
		return errors.New("lacks dataset, case, backend, cpus or gomaxprocs")
	}
	if r.Error == "" && !(r.MsPerEpoch > 0) {
		return fmt.Errorf("(%s) has no positive ms_per_epoch and no error", r.Key())
	}
	return nil
}

// MergeBackendBench returns old with every row of add replacing the row of
// the same key (or appended), sorted by dataset, case, backend and threads.
func MergeBackendBench(old, add []BackendBench) []BackendBench {
	byKey := map[string]BackendBench{}
	for _, r := range old {
		byKey[r.Key()] = r
	}
	for _, r := range add {
		byKey[r.Key()] = r
	}
	out := make([]BackendBench, 0, len(byKey))
	for _, r := range byKey {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Dataset != b.Dataset {
			return a.Dataset < b.Dataset
		}
		if a.Case != b.Case {
			return a.Case < b.Case
		}
		if a.Threads() != b.Threads() {
			return a.Threads() < b.Threads()
		}
		return a.Backend < b.Backend
	})
	return out
}
