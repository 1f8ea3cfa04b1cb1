package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// FormatVersion is written into every file; Open rejects other versions.
const FormatVersion = 1

// Provenance says where and how a run was produced.
type Provenance struct {
	Commit    string `json:"commit"`
	Dirty     bool   `json:"dirty,omitempty"`
	GoVersion string `json:"go_version"`
	SIMD      bool   `json:"simd"`
	Machine   string `json:"machine"`
	// Vector is the Go backend's vector kernels (buildinfo.Info.Vector;
	// absent in records made before it was recorded).
	Vector string `json:"vector,omitempty"`
	NumCPU int    `json:"num_cpu"`
	// Backend is the GoMLX backend that ran, e.g. "go" or "xla:cuda".
	Backend string `json:"backend"`
	// Engine is the compute source of the pure-Go backend (gokernels.Engine)
	// and Kernels lwgcn's kernels that ran on it (gokernels.Active, joined
	// by "+"; "" for none); both absent on XLA and in records made before the
	// patched engine.
	Engine  string `json:"engine,omitempty"`
	Kernels string `json:"kernels,omitempty"`
	// Forms names the forms of the XLA graph switched off for the run, joined
	// by "+": "gcnii-unrolled" when buildinfo.EnvGCN2Loop unrolled GCNII's
	// layers, "rng-masks" when buildinfo.EnvHashMasks drew the dropout masks
	// from the backend's generator (absent when every form ran as lwgcn
	// chooses, and on pure Go); "dense-max-nodes=N" and
	// "segment-gpu-chunk=NMiB" when buildinfo.EnvXLADenseMaxNodes or
	// buildinfo.EnvSegmentGPUChunkMiB replaced those limits.
	Forms string `json:"forms,omitempty"`
	// XLAFlags is XLA_FLAGS as an XLA run read it, lwgcn's GPU defaults
	// included (backend.GPUAutotuneLevel); absent on pure Go, when unset,
	// and in records made before it was recorded.
	XLAFlags string `json:"xla_flags,omitempty"`
	// Date is RFC 3339 (UTC).
	Date string `json:"date"`
}

// NewProvenance fills the build and machine fields from buildinfo and the
// date from now.
func NewProvenance(backend string) Provenance {
	i := buildinfo.Get()
	p := Provenance{Commit: i.Commit, Dirty: i.Dirty, GoVersion: i.GoVersion, SIMD: i.SIMD, Machine: i.Machine,
		Vector: i.Vector, NumCPU: i.NumCPU, Backend: backend, Date: time.Now().UTC().Format(time.RFC3339)}
	if backend == "go" {
		p.Engine, p.Kernels = gokernels.Engine, strings.Join(gokernels.Active(), "+")
	} else {
		var forms []string // forms switched off, then limits replaced
		if on, err := buildinfo.GCN2LoopOn(); err == nil && !on {
			forms = append(forms, "gcnii-unrolled")
		}
		if on, err := buildinfo.HashMasksOn(); err == nil && !on {
			forms = append(forms, "rng-masks")
		}
		if n, set, err := buildinfo.XLADenseMaxNodes(); err == nil && set {
			forms = append(forms, fmt.Sprintf("dense-max-nodes=%d", n))
		}
		if n, set, err := buildinfo.SegmentGPUChunkMiB(); err == nil && set {
			forms = append(forms, fmt.Sprintf("segment-gpu-chunk=%dMiB", n))
		}
		p.Forms = strings.Join(forms, "+")
		p.XLAFlags = os.Getenv("XLA_FLAGS") // backend.EnvXLAFlags (results sits below backend)
	}
	return p
}

// OnAccelerator reports whether the run's backend is XLA on a GPU or TPU
// plugin (CUDA, ROCm, TPU) rather than a CPU: such runs come from another
// machine than the CPU runs of a table, and reports keep them apart.
func (p Provenance) OnAccelerator() bool {
	return strings.HasPrefix(strings.ToLower(p.Backend), "xla:") && buildinfo.PluginOnAccelerator(p.Backend)
}

// String is a short provenance line for figure and table footers.
func (p Provenance) String() string {
	c := p.ShortCommit()
	simd := ""
	if p.Backend == "go" || strings.HasPrefix(p.Backend, "go ") {
		simd = map[bool]string{true: ", SIMD", false: ", no SIMD"}[p.SIMD]
		if p.SIMD && p.Vector != "" {
			simd += " " + p.Vector
		}
		if p.Engine != "" {
			simd += ", " + KernelsPhrase(p.Kernels)
		}
	}
	date := p.Date
	if len(date) >= 10 {
		date = date[:10]
	}
	if p.Forms != "" {
		// Forms switched off by name; limits replaced as name=value.
		var off, set []string
		for _, f := range strings.Split(p.Forms, "+") {
			if strings.Contains(f, "=") {
				set = append(set, f)
			} else {
				off = append(off, f)
			}
		}
		if len(off) > 0 {
			simd += ", forms off: " + strings.Join(off, "+")
		}
		if len(set) > 0 {
			simd += ", form limits " + strings.Join(set, " ")
		}
	}
	if p.XLAFlags != "" {
		simd += ", XLA_FLAGS " + p.XLAFlags
	}
	return fmt.Sprintf("commit %s, backend %s%s, %s, %s", c, p.Backend, simd, p.Machine, date)
}

// KernelsPhrase names lwgcn's kernels of a run (Provenance.Kernels):
// "lwgcn kernels rowgather+gathersum" or "lwgcn kernels off".
func KernelsPhrase(kernels string) string {
	if kernels == "" {
		return "lwgcn kernels off"
	}
	return "lwgcn kernels " + kernels
}

// ShortHash is a commit hash's first 10 hex digits (the whole string when
// shorter), as results and their tables print commits.
func ShortHash(c string) string {
	if len(c) > 10 {
		return c[:10]
	}
	return c
}

// ShortCommit is the commit's first 10 hex digits, "+dirty" when the tree
// had uncommitted changes.
func (p Provenance) ShortCommit() string {
	c := ShortHash(p.Commit)
	if p.Dirty {
		c += "+dirty"
	}
	return c
}

// Run is the record of one training run on one split.
type Run struct {
	// Key identifies the run within its file (experiment, dataset, model,
	// configuration, split, seed); a resumed experiment skips present keys.
	Key        string `json:"key"`
	Experiment string `json:"experiment"`
	Dataset    string `json:"dataset"`
	Model      string `json:"model"`
	Split      int    `json:"split"`
	Seed       int64  `json:"seed"`
	// Params holds numeric settings (hidden, lr, weight decay, h, degree, ...).
	Params map[string]float64 `json:"params,omitempty"`
	// Options holds other settings (variant names, edge direction, ...).
	Options map[string]string `json:"options,omitempty"`

	TestAcc   float64 `json:"test_acc"`
	ValAcc    float64 `json:"val_acc"`
	TrainAcc  float64 `json:"train_acc,omitempty"`
	BestEpoch int     `json:"best_epoch"`
	Epochs    int     `json:"epochs"`
	// SelectionWeight is LW-GCN's softmax weight of f_C at the best epoch.
	SelectionWeight *float64 `json:"selection_weight,omitempty"`
	// Metrics holds further named values (pseudo-label accuracy, ...).
	Metrics map[string]float64 `json:"metrics,omitempty"`

	MsPerEpoch float64 `json:"ms_per_epoch"`
	// CompileSecs is the run's share of the graph building and compiling
	// its invocation did for it, Compiles the epoch graphs it compiled (0:
	// it reused those of an earlier run of its cell; a batch's first run
	// carries the batch's). Compiles is nil in runs recorded before it was,
	// whose CompileSecs is their trainer's whole compile time so far.
	CompileSecs  float64 `json:"compile_secs,omitempty"`
	Compiles     *int    `json:"compiles,omitempty"`
	TotalSecs    float64 `json:"total_secs"`
	PeakMemBytes uint64  `json:"peak_mem_bytes,omitempty"`

	// BatchRuns is the number of runs trained together in the computation
	// that trained this one (train.Config.BatchSize); 0 (absent) means it
	// was trained alone.
	BatchRuns int `json:"batch_runs,omitempty"`
	// Note explains how the record was made when it is not one training
	// of its own (e.g. an MLP sweep run shared by every h of a degree).
	Note string `json:"note,omitempty"`
	// Session is the ID of the session that recorded the run (absent in
	// runs recorded before sessions existed).
	Session string `json:"session,omitempty"`

	Provenance Provenance `json:"provenance"`
}

// File is one results file held in memory. Several File values (in one
// process or several) may write one path: each save merges with what the
// file holds on disk (see Save).
type File struct {
	Path     string
	runs     []Run
	index    map[string]int
	sessions []Session
	// open is the index of the open session in sessions (-1: none).
	open      int
	openStart time.Time
	// dirty and dirtySessions are the run keys and session ids this value
	// changed since it last saved (Put, Merge, sessions): on save they
	// replace the file's copies, and the file's copies of the others
	// replace this value's.
	dirty         map[string]bool
	dirtySessions map[string]bool
}

// fileJSON is the file's layout. Sessions were added later within format
// version 1: files without them read as having none.
type fileJSON struct {
	Version  int       `json:"version"`
	Sessions []Session `json:"sessions,omitempty"`
	Runs     []Run     `json:"runs"`
}

// Open reads a results file, or returns an empty one when it does not exist.
func Open(path string) (*File, error) {
	f := &File{Path: path, index: map[string]int{}, open: -1, dirty: map[string]bool{}, dirtySessions: map[string]bool{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	fj, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	f.runs, f.sessions = fj.Runs, fj.Sessions
	for i, r := range f.runs {
		f.index[r.Key] = i
	}
	return f, nil
}

// parse reads and checks a results file's content.
func parse(path string, data []byte) (*fileJSON, error) {
	var fj fileJSON
	if err := json.Unmarshal(data, &fj); err != nil {
		return nil, fmt.Errorf("results: %s: %w", path, err)
	}
	if fj.Version != FormatVersion {
		return nil, fmt.Errorf("results: %s: format version %d, want %d", path, fj.Version, FormatVersion)
	}
	keys := map[string]bool{}
	for i, r := range fj.Runs {
		if r.Key == "" {
			return nil, fmt.Errorf("results: %s: run %d has no key", path, i)
		}
		if keys[r.Key] {
			return nil, fmt.Errorf("results: %s: key %q appears twice", path, r.Key)
		}
		keys[r.Key] = true
	}
	ids := map[string]bool{}
	for i, s := range fj.Sessions {
		if s.ID == "" || ids[s.ID] {
			return nil, fmt.Errorf("results: %s: session %d has an empty or repeated id %q", path, i, s.ID)
		}
		ids[s.ID] = true
	}
	return &fj, nil
}

// Has reports whether a run with this key is recorded.
func (f *File) Has(key string) bool { _, ok := f.index[key]; return ok }

// Get returns the run with this key.
func (f *File) Get(key string) (Run, bool) {
	i, ok := f.index[key]
	if !ok {
		return Run{}, false
	}
	return f.runs[i], true
}

// Runs returns the recorded runs in insertion order (a copy).
func (f *File) Runs() []Run { return append([]Run(nil), f.runs...) }

// Put records (or replaces) a run and saves the file. While a session is
// open (BeginSession) the run names it and counts in it.
func (f *File) Put(r Run) error {
	if r.Key == "" {
		return fmt.Errorf("results: run without key (%s/%s split %d)", r.Dataset, r.Model, r.Split)
	}
	f.countRun(&r, !f.Has(r.Key))
	f.set(r)
	return f.Save()
}

// set records r in memory as this value's own.
func (f *File) set(r Run) {
	if i, ok := f.index[r.Key]; ok {
		f.runs[i] = r
	} else {
		f.index[r.Key] = len(f.runs)
		f.runs = append(f.runs, r)
	}
	f.dirty[r.Key] = true
}

// Save writes the file atomically, merged with what it holds on disk, under
// the directory lock (see Update): the runs and sessions this value
// changed since its last save replace the file's copies, the file's other runs and sessions
// replace this value's, and the runs and sessions only one side holds are
// kept. Afterwards this value holds the merged file, so it sees what other
// writers recorded. A file on disk that is not a results file is left as it
// is and Save fails naming it.
func (f *File) Save() error {
	err := Update(f.Path, func(old []byte) ([]byte, error) {
		if old != nil {
			disk, err := parse(f.Path, old)
			if err != nil {
				return nil, fmt.Errorf("%w (not overwritten)", err)
			}
			f.mergeDisk(disk)
		}
		data, err := json.MarshalIndent(fileJSON{Version: FormatVersion, Sessions: f.sessions, Runs: f.runs}, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("results: %w", err)
		}
		return append(data, '\n'), nil
	})
	if err == nil {
		clear(f.dirty)
		clear(f.dirtySessions)
	}
	return err
}

// mergeDisk merges the file's content on disk into f (see Save): the
// disk's order first, then what only f holds.
func (f *File) mergeDisk(disk *fileJSON) {
	runs := make([]Run, 0, len(disk.Runs)+len(f.runs))
	seen := map[string]bool{}
	for _, r := range disk.Runs {
		if i, ok := f.index[r.Key]; ok && f.dirty[r.Key] {
			r = f.runs[i]
		}
		runs, seen[r.Key] = append(runs, r), true
	}
	for _, r := range f.runs {
		if !seen[r.Key] {
			runs = append(runs, r)
		}
	}
	f.runs, f.index = runs, make(map[string]int, len(runs))
	for i, r := range runs {
		f.index[r.Key] = i
	}
	openID := f.OpenSession()
	have := map[string]int{}
	for i, s := range f.sessions {
		have[s.ID] = i
	}
	sessions := make([]Session, 0, len(disk.Sessions)+len(f.sessions))
	seenS := map[string]bool{}
	for _, s := range disk.Sessions {
		if i, ok := have[s.ID]; ok && f.dirtySessions[s.ID] {
			s = f.sessions[i]
		}
		sessions, seenS[s.ID] = append(sessions, s), true
	}
	for _, s := range f.sessions {
		if !seenS[s.ID] {
			sessions = append(sessions, s)
		}
	}
	start := func(s Session) time.Time { t, _ := time.Parse(time.RFC3339Nano, s.Start); return t }
	sort.SliceStable(sessions, func(i, j int) bool { return start(sessions[i]).Before(start(sessions[j])) })
	f.sessions, f.open = sessions, -1
	for i, s := range sessions {
		if s.ID == openID {
			f.open = i
		}
	}
}

// Stat is mean ± std over a group of runs.
type Stat struct {
	Mean, Std float64
	N         int
}

// MeanStd returns the mean and the population standard deviation (numpy's
// np.std, ddof=0, which the official LW-GCN code reports).
func MeanStd(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{Mean: math.NaN(), Std: math.NaN()}
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return Stat{Mean: m, Std: math.Sqrt(v / float64(len(xs))), N: len(xs)}
}

// Group collects the runs matching keep and groups them by the string key
// returns, e.g. dataset+"/"+model; groups are returned sorted by key.
func Group(runs []Run, keep func(Run) bool, key func(Run) string) (keys []string, groups map[string][]Run) {
	groups = map[string][]Run{}
	for _, r := range runs {
		if keep != nil && !keep(r) {
			continue
		}
		k := key(r)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	sort.Strings(keys)
	return keys, groups
}

// Accuracy returns mean ± std of test accuracy in percent.
func Accuracy(runs []Run) Stat {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = 100 * r.TestAcc
	}
	return MeanStd(xs)
}
