package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The busy time is the "cpu" line without idle (4th) and iowait (5th),
// and without guest time (already inside user), in seconds of USER_HZ=100.
func TestMachineBusySecs(t *testing.T) {
	old := ProcStatPath
	defer func() { ProcStatPath = old }()
	ProcStatPath = filepath.Join(t.TempDir(), "stat")
	// user 100, nice 50, system 30, idle 9000, iowait 7, irq 2, softirq 3, steal 5, guest 40, guest_nice 1
	content := "cpu  100 50 30 9000 7 2 3 5 40 1\ncpu0 1 1 1 1 1 1 1 1 0 0\nintr 1 2 3\n"
	if err := os.WriteFile(ProcStatPath, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := machineBusySecs()
	if err != nil {
		t.Fatal(err)
	}
	if want := (100 + 50 + 30 + 2 + 3 + 5) / 100.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("busy = %v s, want %v s", got, want)
	}

	if err := os.WriteFile(ProcStatPath, []byte("cpu  1 2 x 4 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := machineBusySecs(); err == nil || !strings.Contains(err.Error(), `cpu field 3 "x"`) {
		t.Errorf("bad field: err = %v, want it to name field 3", err)
	}
	if err := os.WriteFile(ProcStatPath, []byte("intr 1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := machineBusySecs(); err == nil || !strings.Contains(err.Error(), `no "cpu" line`) {
		t.Errorf("no cpu line: err = %v", err)
	}
}

// Others' cores = (machine busy - own CPU) / wall: 3 s busy, 1 s of it
// ours, over 4 s of wall time is half a core kept busy by others.
func TestOtherCores(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := CPUSample{wall: t0, busy: 10, ownSecs: 2}
	b := CPUSample{wall: t0.Add(4 * time.Second), busy: 13, ownSecs: 3}
	if got := a.OtherCores(b); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("OtherCores = %v, want 0.5", got)
	}
	// Rounding of the two clocks can make it slightly negative: clamp.
	c := CPUSample{wall: t0.Add(time.Second), busy: 10.5, ownSecs: 2.6}
	if got := a.OtherCores(c); got != 0 {
		t.Errorf("OtherCores = %v, want 0 (clamped)", got)
	}
}

// On the real machine, this process's CPU time is inside the machine's busy
// time (the two clocks are the ones OtherCores subtracts): spin until the
// process has used 0.2 s of CPU, and the machine must have been busy at
// least that long.
func TestSampleCPUSeesOwnTime(t *testing.T) {
	if _, err := os.Stat(ProcStatPath); err != nil {
		t.Skip("no /proc/stat")
	}
	a, err := SampleCPU()
	if err != nil {
		t.Fatal(err)
	}
	var b CPUSample
	for deadline := time.Now().Add(10 * time.Second); ; {
		if b, err = SampleCPU(); err != nil {
			t.Fatal(err)
		}
		if b.ownSecs-a.ownSecs >= 0.2 || time.Now().After(deadline) {
			break
		}
	}
	own, busy := b.ownSecs-a.ownSecs, b.busy-a.busy
	if own < 0.2 {
		t.Fatalf("own CPU time after spinning 10 s = %.3f s", own)
	}
	// 0.02 s: the clocks tick at 100 Hz.
	if busy < own-0.02 {
		t.Errorf("machine busy %.3f s < this process's %.3f s", busy, own)
	}
}
