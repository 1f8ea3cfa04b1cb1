package results

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ProcStatPath is the file the machine's CPU times are read from.
var ProcStatPath = "/proc/stat"

// clockTicks is USER_HZ, the unit of /proc/stat (100 on every Linux ABI Go
// supports).
const clockTicks = 100

// CPUSample is a point in time for OtherCores: the machine's busy CPU time
// and this process's own.
type CPUSample struct {
	wall    time.Time
	busy    float64 // seconds, all CPUs, from /proc/stat
	ownSecs float64 // seconds, this process (user + system), from getrusage
}

// SampleCPU reads the machine's busy CPU time (/proc/stat: everything but
// idle and iowait) and this process's CPU time.
func SampleCPU() (CPUSample, error) {
	busy, err := machineBusySecs()
	if err != nil {
		return CPUSample{}, err
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return CPUSample{}, fmt.Errorf("getrusage: %w", err)
	}
	own := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	return CPUSample{wall: time.Now(), busy: busy, ownSecs: own}, nil
}

// OtherCores is the average number of CPUs that processes other than this
// one kept busy between s and end: the machine's busy time minus this
// process's, over the wall time. About 0 on an idle machine; a timing
// taken while it is above a few tenths waited for a core part of the time.
func (s CPUSample) OtherCores(end CPUSample) float64 {
	wall := end.wall.Sub(s.wall).Seconds()
	if wall <= 0 {
		return 0
	}
	return max(0, ((end.busy-s.busy)-(end.ownSecs-s.ownSecs))/wall)
}

// OtherCoresExcluding is OtherCores for the time between s and end when
// the work measured ran in a child process that used childSecs of CPU: the
// machine's busy time minus this process's and the child's, over the wall
// time.
func (s CPUSample) OtherCoresExcluding(end CPUSample, childSecs float64) float64 {
	wall := end.wall.Sub(s.wall).Seconds()
	if wall <= 0 {
		return 0
	}
	return max(0, ((end.busy-s.busy)-(end.ownSecs-s.ownSecs)-childSecs)/wall)
}

// machineBusySecs sums the "cpu" line of ProcStatPath except idle and
// iowait, in seconds.
func machineBusySecs() (float64, error) {
	data, err := os.ReadFile(ProcStatPath)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 5 || fields[0] != "cpu" {
			continue
		}
		var busy float64
		// user nice system idle iowait irq softirq steal [guest guest_nice]:
		// guest time is already counted in user, so stop at steal.
		for i, f := range fields[1:min(len(fields), 9)] {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: cpu field %d %q: %w", ProcStatPath, i+1, f, err)
			}
			if i != 3 && i != 4 {
				busy += v
			}
		}
		return busy / clockTicks, nil
	}
	return 0, fmt.Errorf("%s: no \"cpu\" line", ProcStatPath)
}
