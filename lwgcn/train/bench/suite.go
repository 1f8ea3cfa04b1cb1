package bench

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Case is one benchmark: a model on a graph size, with fusion on or off.
type Case struct {
	Name   string
	Size   Size
	Model  nn.Model
	Fusion bool
	// Undirected times the model on the symmetrised random graph, as its
	// training has it (the zoo's GCN symmetrises every dataset).
	Undirected bool
}

// Suite returns the benchmark cases. Fusion on and off are measured for
// GCN and the label-wise network; the rest run with the default.
func Suite() []Case {
	gcn := models.GCN{Hidden: 64, Dropout: 0.5}
	lw64 := LabelWiseNet{Hidden: 64, Seed: 1}
	gcnii2 := models.GCNII{Layers: 2, Hidden: 64, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5}
	var cs []Case
	add := func(name string, s Size, m nn.Model, fusion bool) {
		cs = append(cs, Case{Name: name, Size: s, Model: m, Fusion: fusion})
	}
	for _, s := range Sizes {
		for _, f := range []bool{false, true} {
			add("gcn", s, gcn, f)
			cs[len(cs)-1].Undirected = true
			add("labelwise-h64", s, lw64, f)
		}
		add("gcnii-2", s, gcnii2, backend.DefaultFusion)
		add("mlp", s, models.MLP{Hidden: 64, Dropout: 0.5}, backend.DefaultFusion)
	}
	add("labelwise-h256", Squirrel, LabelWiseNet{Hidden: 256, Seed: 1}, backend.DefaultFusion)
	add("gcnii-64", Cora, models.GCNII{Layers: 64, Hidden: 64, Dropout: 0.6, Alpha: 0.1, Lambda: 0.5}, backend.DefaultFusion)
	return cs
}

// CaseResult is one measured case.
type CaseResult struct {
	Name     string  `json:"name"`
	Graph    string  `json:"graph"`
	Nodes    int     `json:"nodes"`
	Edges    int     `json:"edges"`
	Features int     `json:"features"`
	Fusion   bool    `json:"fusion"`
	Epochs   int     `json:"epochs_measured"`
	MsEpoch  float64 `json:"ms_per_epoch"`
	// CPUMsEpoch is the process CPU time (user + system, all threads) per
	// epoch: on a loaded machine a steadier measure of the work than wall
	// time; above MsEpoch when ops ran in parallel.
	CPUMsEpoch float64 `json:"cpu_ms_per_epoch"`
	// CompileSecs is the time to build and compile the epoch graph.
	CompileSecs float64 `json:"compile_secs"`
	// PeakRSSBytes is the process's peak resident set during the case
	// (Linux VmHWM, reset before each case); 0 where unavailable.
	PeakRSSBytes uint64 `json:"peak_rss_bytes,omitempty"`
	// GoHeapBytes is the Go heap in use after the case's epochs.
	GoHeapBytes uint64 `json:"go_heap_bytes"`
	// AllocBytesPerEpoch is what one epoch allocates on the Go heap.
	AllocBytesPerEpoch int64  `json:"alloc_bytes_per_epoch"`
	Error              string `json:"error,omitempty"`
}

// Report is the suite's output, written to results/bench.json.
type Report struct {
	Date      string         `json:"date"`
	Build     buildinfo.Info `json:"build"`
	Backend   backend.Info   `json:"backend"`
	BenchTime string         `json:"bench_time"`
	Cases     []CaseResult   `json:"cases"`
}

// Options configures Run.
type Options struct {
	// Filter keeps cases whose "name/graph/fusion" contains it ("" = all).
	Filter string
	// MinTime is the minimum measuring time per case (testing's benchtime).
	MinTime time.Duration
	// Log receives one line per case (nil: none).
	Log func(string)
	// Measured, if set, receives each case's result as soon as it is
	// measured (to save it: a long suite stopped later keeps it); an error
	// stops Run.
	Measured func(CaseResult) error
}

// Key is the case's identifier used by Options.Filter.
func (c Case) Key() string { return fmt.Sprintf("%s/%s/fusion=%v", c.Name, c.Size.Name, c.Fusion) }

// Run measures the cases on backend b.
func Run(b compute.Backend, info backend.Info, cases []Case, opt Options) (*Report, error) {
	rep := &Report{Date: time.Now().UTC().Format(time.RFC3339), Build: buildinfo.Get(), Backend: info,
		BenchTime: opt.MinTime.String()}
	graphs := map[string]*graphCache{}
	prevFusion, hadFusion := os.LookupEnv(backend.EnvFusion)
	defer func() {
		if hadFusion {
			os.Setenv(backend.EnvFusion, prevFusion)
		} else {
			os.Unsetenv(backend.EnvFusion)
		}
	}()
	for _, c := range cases {
		if opt.Filter != "" && !strings.Contains(c.Key(), opt.Filter) {
			continue
		}
		gc := graphs[c.Size.Name]
		if gc == nil {
			g, err := RandomGraph(c.Size, 1)
			if err != nil {
				return nil, err
			}
			gc = &graphCache{g: g}
			graphs[c.Size.Name] = gc
		}
		res := CaseResult{Name: c.Name, Graph: c.Size.Name, Nodes: c.Size.Nodes, Edges: gc.graph(c).NumEdges(),
			Features: c.Size.Features, Fusion: c.Fusion}
		os.Setenv(backend.EnvFusion, strconv.FormatBool(c.Fusion))
		if err := measure(b, gc, c, opt.MinTime, &res); err != nil {
			res.Error = err.Error()
		}
		if opt.Log != nil {
			if res.Error != "" {
				opt.Log(fmt.Sprintf("%-50s error: %s", c.Key(), res.Error))
			} else {
				opt.Log(fmt.Sprintf("%-44s %9.2f ms/epoch (cpu %9.2f)  compile %5.2fs  peak RSS %s", c.Key(), res.MsEpoch,
					res.CPUMsEpoch, res.CompileSecs, humanBytes(res.PeakRSSBytes)))
			}
		}
		rep.Cases = append(rep.Cases, res)
		if opt.Measured != nil {
			if err := opt.Measured(res); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// graphCache holds a size's random graph and its symmetrised form.
type graphCache struct{ g, und *graph.Graph }

// graph is the graph case c is timed on.
func (gc *graphCache) graph(c Case) *graph.Graph {
	if !c.Undirected {
		return gc.g
	}
	if gc.und == nil {
		gc.und = gc.g.ToUndirected()
	}
	return gc.und
}

func measure(b compute.Backend, gc *graphCache, c Case, minTime time.Duration, res *CaseResult) error {
	g := gc.graph(c)
	debug.FreeOSMemory() // return earlier cases' memory, so the peak is this case's
	resetPeakRSS()
	tr, err := train.New(b, c.Model, g, train.Config{Epochs: 1, LR: 0.01, WeightDecay: 5e-4})
	if err != nil {
		return err
	}
	er, err := tr.PrepareRuns(train.Run{Split: 0, Seed: 1})
	if err != nil {
		return err
	}
	res.CompileSecs = tr.CompileTime().Seconds()
	if _, err := er.Epoch(); err != nil { // warm-up
		return err
	}
	var epochErr error
	var cpu time.Duration
	br := benchmark(minTime, func(bb *testing.B) {
		c0 := cpuTime()
		defer func() { cpu = cpuTime() - c0 }()
		bb.ReportAllocs()
		for range bb.N {
			if _, err := er.Epoch(); err != nil {
				epochErr = err
				bb.FailNow()
			}
		}
	})
	if epochErr != nil {
		return epochErr
	}
	res.Epochs = br.N
	res.MsEpoch = float64(br.T.Nanoseconds()) / float64(max(br.N, 1)) / 1e6
	res.CPUMsEpoch = float64(cpu.Nanoseconds()) / float64(max(br.N, 1)) / 1e6
	res.AllocBytesPerEpoch = br.AllocedBytesPerOp()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.GoHeapBytes = ms.HeapInuse
	res.PeakRSSBytes = peakRSS()
	return nil
}

// benchmark runs f like `go test -bench` with the given minimum time.
func benchmark(minTime time.Duration, f func(b *testing.B)) testing.BenchmarkResult {
	if minTime <= 0 {
		minTime = time.Second
	}
	initTesting.Do(testing.Init)
	_ = flag.Set("test.benchtime", minTime.String())
	return testing.Benchmark(f)
}

var initTesting sync.Once

// resetPeakRSS resets the kernel's peak-RSS counter (Linux).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS reads VmHWM from /proc/self/status (Linux), in bytes.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "VmHWM:") {
			fields := strings.Fields(line)
			if len(fields) >= 2 {
				kb, _ := strconv.ParseUint(fields[1], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

func humanBytes(b uint64) string {
	switch {
	case b == 0:
		return "n/a"
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	default:
		return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
	}
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
