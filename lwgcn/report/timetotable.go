package report

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// TimeToTable is what producing a table took: the wall time of the
// sessions (results.Session) that recorded its runs, and, for runs recorded
// before sessions existed, the sum of those runs' own training times.
type TimeToTable struct {
	// SessionSecs is the total wall time of the Sessions sessions that
	// recorded at least one of the table's runs, summed; WallSecs the wall
	// time during which at least one of them ran (sessions run in parallel,
	// each process with its own results file, overlap; a session without a
	// readable start counts whole).
	SessionSecs, WallSecs float64
	Sessions              int
	// MaxLoad1 is the highest 1-minute load average those sessions recorded
	// (at start or end; -1: none recorded) and MaxProcs their largest
	// GOMAXPROCS: a load above it means the machine was shared and the wall
	// time is longer than the work alone would take.
	MaxLoad1 float64
	MaxProcs int
	// UnsessionedRuns are the table's runs that name no session (recorded
	// before sessions existed, or by a session missing from the file);
	// UnsessionedSecs the sum of their TotalSecs (training time, not wall
	// time: loading and gaps between runs are not in it).
	UnsessionedRuns int
	UnsessionedSecs float64
	// Cells is the number of cells the table has; CompleteCells those that
	// have every run of their protocol.
	Cells, CompleteCells int
	// CompileRuns are the table's runs that recorded their compiles
	// (results.Run.Compiles; runs recorded before it are left out), Compiles
	// the epoch graphs they compiled and CompileSecs the time that took
	// (part of the times above, apart from training).
	CompileRuns, Compiles int
	CompileSecs           float64
	// Accelerator is the time of the runs on an accelerator
	// (results.Provenance.OnAccelerator): another machine, so its sessions
	// are counted apart and not in the fields above.
	Accelerator *AcceleratorTime
}

// AcceleratorTime is the part of a table recorded on an accelerator.
type AcceleratorTime struct {
	Runs, Sessions        int
	SessionSecs, WallSecs float64
	// Backends names the backends that ran them, sorted.
	Backends []string
}

// Complete reports whether every cell has all its protocol runs.
func (t TimeToTable) Complete() bool { return t.Cells > 0 && t.CompleteCells == t.Cells }

// cell is one cell of a table: the runs it holds and how many the protocol
// asks (distinct (split, seed) pairs).
type cell struct {
	runs []results.Run
	want int
}

// protocolRunCount is the number of runs of the paper's protocol for a
// dataset (Protocol's): 3 seeds of the public split for Planetoid graphs,
// else 10 splits.
func protocolRunCount(dataset string) int { return len(experiments.Protocol(dataset, 10)) }

// computeTimeToTable sums the sessions behind runs (looked up in
// sessions) and counts the complete cells.
func computeTimeToTable(sessions []results.Session, runs []results.Run, cells []cell) TimeToTable {
	byID := map[string]results.Session{}
	for _, s := range sessions {
		byID[s.ID] = s
	}
	t := TimeToTable{MaxLoad1: -1}
	var cpu sessionTally
	var accel []results.Run
	for _, r := range runs {
		if r.Compiles != nil {
			t.CompileRuns++
			t.Compiles += *r.Compiles
			t.CompileSecs += r.CompileSecs
		}
		if r.Provenance.OnAccelerator() {
			accel = append(accel, r)
			continue
		}
		s, ok := byID[r.Session]
		if r.Session == "" || !ok {
			t.UnsessionedRuns++
			t.UnsessionedSecs += r.TotalSecs
			continue
		}
		if cpu.add(s) {
			t.MaxProcs = max(t.MaxProcs, s.GOMAXPROCS)
			for _, l := range []*float64{s.Load1Start, s.Load1End} {
				if l != nil {
					t.MaxLoad1 = max(t.MaxLoad1, *l)
				}
			}
		}
	}
	t.Sessions, t.SessionSecs, t.WallSecs = cpu.sessions, cpu.sessionSecs, cpu.wallSecs()
	if len(accel) > 0 {
		t.Accelerator = acceleratorTime(byID, accel)
	}
	t.Cells = len(cells)
	for _, c := range cells {
		distinct := map[[2]int64]bool{}
		for _, r := range c.runs {
			distinct[[2]int64{int64(r.Split), r.Seed}] = true
		}
		if len(distinct) >= c.want {
			t.CompleteCells++
		}
	}
	return t
}

// acceleratorTime sums the sessions behind runs on an accelerator (runs
// without a session count by their own training time).
func acceleratorTime(byID map[string]results.Session, runs []results.Run) *AcceleratorTime {
	a := &AcceleratorTime{Runs: len(runs)}
	var tally sessionTally
	backends := map[string]bool{}
	own := 0.0
	for _, r := range runs {
		backends[r.Provenance.Backend] = true
		if s, ok := byID[r.Session]; r.Session != "" && ok {
			tally.add(s)
		} else {
			own += r.TotalSecs
		}
	}
	a.Sessions, a.SessionSecs, a.WallSecs = tally.sessions, tally.sessionSecs+own, tally.wallSecs()+own
	a.Backends = sortedKeys(backends)
	return a
}

// sessionTally sums distinct sessions: their count, their wall times and
// the time during which at least one ran.
type sessionTally struct {
	seen        map[string]bool
	sessions    int
	sessionSecs float64
	unplaced    float64      // sessions without a readable start count whole
	spans       [][2]float64 // [start, end] in seconds since the Unix epoch
}

// add counts s unless it was counted already; it reports whether s is new.
func (t *sessionTally) add(s results.Session) bool {
	if t.seen[s.ID] {
		return false
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	t.seen[s.ID] = true
	t.sessions++
	t.sessionSecs += s.WallSecs
	if start, err := time.Parse(time.RFC3339Nano, s.Start); err == nil {
		a := float64(start.UnixNano()) / 1e9
		t.spans = append(t.spans, [2]float64{a, a + s.WallSecs})
	} else {
		t.unplaced += s.WallSecs
	}
	return true
}

// wallSecs is the time during which at least one counted session ran.
func (t *sessionTally) wallSecs() float64 { return t.unplaced + unionLength(t.spans) }

// unionLength is the total length covered by the intervals.
func unionLength(spans [][2]float64) float64 {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	total, end := 0.0, math.Inf(-1)
	for _, s := range spans {
		switch {
		case s[0] >= end:
			total += s[1] - s[0]
			end = s[1]
		case s[1] > end:
			total += s[1] - end
			end = s[1]
		}
	}
	return total
}

// fmtDuration renders seconds as "42 s", "12.5 min" or "3 h 05 min".
func fmtDuration(secs float64) string {
	switch {
	case secs < 60:
		return fmt.Sprintf("%.0f s", secs)
	case secs < 3600:
		return fmt.Sprintf("%.1f min", secs/60)
	}
	m := int(math.Round(secs / 60))
	return fmt.Sprintf("%d h %02d min", m/60, m%60)
}

// Markdown is the time-to-table line printed under a table.
func (t TimeToTable) Markdown() string {
	var parts []string
	if t.Sessions > 0 {
		p := fmt.Sprintf("%s of wall time in %d session%s", fmtDuration(t.WallSecs), t.Sessions,
			map[bool]string{true: "", false: "s"}[t.Sessions == 1])
		if t.SessionSecs > t.WallSecs+1 {
			p += fmt.Sprintf(", some of them in parallel (%s summed over the sessions)", fmtDuration(t.SessionSecs))
		}
		if t.MaxLoad1 >= 0 && t.MaxProcs > 0 && t.MaxLoad1 > float64(t.MaxProcs)+0.5 {
			p += fmt.Sprintf(" (the machine was shared: load average up to %.1f for GOMAXPROCS %d)", t.MaxLoad1, t.MaxProcs)
		}
		parts = append(parts, p)
	}
	if t.UnsessionedRuns > 0 {
		parts = append(parts, fmt.Sprintf("%d runs recorded before sessions: %s, the sum of their own training "+
			"times (total_secs; not wall time)", t.UnsessionedRuns, fmtDuration(t.UnsessionedSecs)))
	}
	if a := t.Accelerator; a != nil {
		p := fmt.Sprintf("%d runs on a GPU, another machine (%s): %s of wall time", a.Runs,
			strings.Join(a.Backends, ", "), fmtDuration(a.WallSecs))
		if a.Sessions > 0 {
			p += fmt.Sprintf(" in %d session%s", a.Sessions, map[bool]string{true: "", false: "s"}[a.Sessions == 1])
			if a.SessionSecs > a.WallSecs+1 {
				p += fmt.Sprintf(", in parallel (%s summed)", fmtDuration(a.SessionSecs))
			}
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = append(parts, "no runs")
	}
	compiling := ""
	if t.CompileRuns > 0 {
		compiling = fmt.Sprintf("; compiling (in those times, apart from training): %d epoch graph%s in %s, "+
			"over the %d run%s that recorded it", t.Compiles, map[bool]string{true: "", false: "s"}[t.Compiles == 1],
			fmtDuration(t.CompileSecs), t.CompileRuns, map[bool]string{true: "", false: "s"}[t.CompileRuns == 1])
	}
	complete := "complete (every cell has all its protocol runs)"
	if !t.Complete() {
		complete = fmt.Sprintf("not complete (%d of %d cells have all their protocol runs)", t.CompleteCells, t.Cells)
	}
	return "Time-to-table: " + strings.Join(parts, "; plus ") + compiling + "; " + complete + ".\n"
}

// openSessions reads the sessions of <dir>/<name>.json for each name.
func openSessions(dir string, names ...string) ([]results.Session, error) {
	var out []results.Session
	for _, n := range names {
		f, err := results.Open(filepath.Join(dir, n+".json"))
		if err != nil {
			return nil, err
		}
		out = append(out, f.Sessions()...)
	}
	return out, nil
}

// comparisonCells are the (method, dataset) cells of a comparison table,
// each with the runs of its summary.
func comparisonCells(sums map[string]map[string]*Summary, methods, datasets []string) (cells []cell, runs []results.Run) {
	for _, m := range methods {
		for _, d := range datasets {
			c := cell{want: protocolRunCount(d)}
			if s := sums[m][d]; s != nil {
				c.runs = s.Runs
				runs = append(runs, s.Runs...)
			}
			cells = append(cells, c)
		}
	}
	return cells, runs
}

// comparisonTimeToTable is the time-to-table line of a comparison table
// built from the results files names in dir.
func comparisonTimeToTable(dir string, sums map[string]map[string]*Summary, methods, datasets []string, names ...string) (string, error) {
	sessions, err := openSessions(dir, names...)
	if err != nil {
		return "", err
	}
	cells, runs := comparisonCells(sums, methods, datasets)
	return computeTimeToTable(sessions, runs, cells).Markdown(), nil
}

// depthDatasets and depthMethods are those of `lwgcn reproduce depth`.
var (
	depthDatasets = []string{"texas", "chameleon", "squirrel"}
	depthMethods  = []string{"lwgcn", "gcn"}
)

// depthTimeToTable is the depth study's time-to-table: one cell per
// (dataset, method, depth of DepthLayers).
func depthTimeToTable(dir string, runs []results.Run) (string, error) {
	sessions, err := openSessions(dir, "depth")
	if err != nil {
		return "", err
	}
	byCell := map[string][]results.Run{}
	for _, r := range runs {
		k := fmt.Sprintf("%s/%s/%d", r.Dataset, r.Model, int(r.Params["layers"]))
		byCell[k] = append(byCell[k], r)
	}
	var cells []cell
	for _, d := range depthDatasets {
		for _, m := range depthMethods {
			for _, l := range experiments.DepthLayers {
				cells = append(cells, cell{runs: byCell[fmt.Sprintf("%s/%s/%d", d, m, l)], want: protocolRunCount(d)})
			}
		}
	}
	return computeTimeToTable(sessions, runs, cells).Markdown(), nil
}

// SweepTimeToTable is the time-to-table of one base's sweep (RESULTS.md and
// notebook 04 print it under the sweep): one cell per
// (method, degree, h) of the paper's sweep (SweepMethods, SweepDegrees,
// SweepHs), each with the base's 10 splits.
func SweepTimeToTable(sessions []results.Session, runs []results.Run, base string) string {
	byCell := map[string][]results.Run{}
	var mine []results.Run
	for _, r := range runs {
		if r.Dataset != base {
			continue
		}
		mine = append(mine, r)
		k := fmt.Sprintf("%s/%g/%.2f", r.Model, r.Params["degree"], r.Params["h"])
		byCell[k] = append(byCell[k], r)
	}
	var cells []cell
	for _, m := range experiments.SweepMethods {
		for _, d := range experiments.SweepDegrees {
			for _, h := range experiments.SweepHs {
				cells = append(cells, cell{runs: byCell[fmt.Sprintf("%s/%g/%.2f", m, d, h)], want: protocolRunCount(base)})
			}
		}
	}
	return computeTimeToTable(sessions, mine, cells).Markdown()
}
