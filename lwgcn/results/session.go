package results

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
)

// Session is the record of one invocation that wrote to a results file
// (`lwgcn reproduce`, `lwgcn sweep`): what it was asked, where and how it
// ran, how long it took and how many runs it added. The runs it added name
// it (Run.Session), so a table's time-to-table is the wall time of the
// sessions that produced its runs. Files written before sessions existed
// have none; their runs have no Session.
type Session struct {
	// ID is unique within the file (start time and process id).
	ID string `json:"id"`
	// Command and Experiment say what ran, e.g. "reproduce" and "table2".
	Command    string   `json:"command"`
	Experiment string   `json:"experiment"`
	Datasets   []string `json:"datasets,omitempty"`
	Methods    []string `json:"methods,omitempty"`
	// Start is RFC 3339 (UTC); WallSecs the wall time from Start to the
	// end (or to the last run recorded, while running or when killed).
	Start     string  `json:"start"`
	WallSecs  float64 `json:"wall_secs"`
	RunsAdded int     `json:"runs_added"`
	// Finished is false while the session runs and when it was killed;
	// Error holds the error that ended it early.
	Finished bool   `json:"finished"`
	Error    string `json:"error,omitempty"`

	GOMAXPROCS int    `json:"gomaxprocs"`
	Backend    string `json:"backend"`
	// Batch is the batch mode asked ("auto", "1" = alone, "N").
	Batch string `json:"batch,omitempty"`
	// Load1Start and Load1End are the 1-minute load average of the machine
	// (/proc/loadavg) at start and end, so that a reader knows whether the
	// machine was shared; nil where /proc/loadavg cannot be read.
	Load1Start *float64 `json:"load1_start,omitempty"`
	Load1End   *float64 `json:"load1_end,omitempty"`
	Commit     string   `json:"commit"`
	Dirty      bool     `json:"dirty,omitempty"`
}

// LoadAvgPath is the file the load average is read from.
var LoadAvgPath = "/proc/loadavg"

// Load1 returns the machine's 1-minute load average from LoadAvgPath.
func Load1() (float64, error) {
	data, err := os.ReadFile(LoadAvgPath)
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return 0, fmt.Errorf("%s: empty", LoadAvgPath)
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", LoadAvgPath, err)
	}
	return v, nil
}

// load1OrNil is Load1, nil where it cannot be read (recorded as absent).
func load1OrNil() *float64 {
	v, err := Load1()
	if err != nil {
		return nil
	}
	return &v
}

// NewSession describes an invocation starting now: GOMAXPROCS, load
// average, commit and start time are filled in.
func NewSession(command, experiment string, datasets, methods []string, backend, batch string) Session {
	now := time.Now().UTC()
	i := buildinfo.Get()
	return Session{ID: fmt.Sprintf("%s-%d", now.Format("20060102T150405.000Z"), os.Getpid()),
		Command: command, Experiment: experiment, Datasets: datasets, Methods: methods,
		Start: now.Format(time.RFC3339Nano), GOMAXPROCS: runtime.GOMAXPROCS(0), Backend: backend, Batch: batch,
		Load1Start: load1OrNil(), Commit: i.Commit, Dirty: i.Dirty}
}

// Sessions returns the recorded sessions in order (a copy).
func (f *File) Sessions() []Session { return append([]Session(nil), f.sessions...) }

// BeginSession records s as the file's open session and saves the file:
// every run Put until EndSession names it and counts in its RunsAdded and
// WallSecs, so a killed invocation still leaves its time behind.
func (f *File) BeginSession(s Session) error {
	if f.open >= 0 {
		return fmt.Errorf("results: %s: session %s begun while %s is open", f.Path, s.ID, f.sessions[f.open].ID)
	}
	for _, o := range f.sessions {
		if o.ID == s.ID {
			return fmt.Errorf("results: %s: session %q already recorded", f.Path, s.ID)
		}
	}
	start, err := time.Parse(time.RFC3339Nano, s.Start)
	if err != nil {
		return fmt.Errorf("results: session %s: start %q: %w", s.ID, s.Start, err)
	}
	f.open, f.openStart = len(f.sessions), start
	f.sessions = append(f.sessions, s)
	f.dirtySessions[s.ID] = true
	return f.Save()
}

// EndSession closes the open session: wall time, end load average, and
// runErr (nil: finished normally). It saves the file.
func (f *File) EndSession(runErr error) error {
	if f.open < 0 {
		return fmt.Errorf("results: %s: no open session to end", f.Path)
	}
	s := &f.sessions[f.open]
	f.dirtySessions[s.ID] = true
	s.WallSecs = time.Since(f.openStart).Seconds()
	s.Load1End = load1OrNil()
	s.Finished = runErr == nil
	if runErr != nil {
		s.Error = runErr.Error()
	}
	f.open = -1
	return f.Save()
}

// OpenSession returns the open session's ID ("" when none).
func (f *File) OpenSession() string {
	if f.open < 0 {
		return ""
	}
	return f.sessions[f.open].ID
}

// countRun ties a run being recorded to the open session.
func (f *File) countRun(r *Run, isNew bool) {
	if f.open < 0 {
		return
	}
	s := &f.sessions[f.open]
	f.dirtySessions[s.ID] = true
	r.Session = s.ID
	if isNew {
		s.RunsAdded++
	}
	s.WallSecs = time.Since(f.openStart).Seconds()
}

// Merge adds other's runs and sessions to f and saves f: the way to join
// the files of invocations run in parallel with one results file each
// (invocations sharing one file merge on every save, see File.Save). A run f lacks is added; a run both hold (same
// key: experiment, dataset, method, split, seed and configuration) keeps
// the one recorded last (provenance date). A session f lacks is added; one
// both hold (a copy taken while it was open) keeps the copy that ran
// longer. Sessions end up ordered by start. Neither file may have an open
// session.
func (f *File) Merge(other *File) (added, replaced int, err error) {
	if f.open >= 0 || other.open >= 0 {
		return 0, 0, fmt.Errorf("results: merging %s into %s: a session is open", other.Path, f.Path)
	}
	for _, r := range other.runs {
		i, ok := f.index[r.Key]
		switch {
		case !ok:
			f.set(r)
			added++
		case r.Provenance.Date > f.runs[i].Provenance.Date:
			f.set(r)
			replaced++
		}
	}
	have := map[string]int{}
	for i, s := range f.sessions {
		have[s.ID] = i
	}
	for _, s := range other.sessions {
		if i, ok := have[s.ID]; !ok {
			have[s.ID] = len(f.sessions)
			f.sessions = append(f.sessions, s)
			f.dirtySessions[s.ID] = true
		} else if s.WallSecs > f.sessions[i].WallSecs {
			f.sessions[i] = s
			f.dirtySessions[s.ID] = true
		}
	}
	start := func(s Session) time.Time { t, _ := time.Parse(time.RFC3339Nano, s.Start); return t }
	sort.SliceStable(f.sessions, func(i, j int) bool { return start(f.sessions[i]).Before(start(f.sessions[j])) })
	return added, replaced, f.Save()
}
