package limits

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "512MiB": 512 << 20, "16GiB": 16 << 30, "1.5GB": 1_500_000_000,
		" 2g ": 2 << 30, "4096": 4096, "1KiB": 1024, "3kb": 3000} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "NaN", "Inf", "-1GiB", "0", "0.5", "1e30", "lots", "GiB", "1 PB"} {
		if got, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", in, got)
		}
	}
}

func TestMulAdd(t *testing.T) {
	if Mul(3, 4, 5) != 60 || Mul() != 1 || Mul(0, math.MaxInt64, 7) != 0 {
		t.Error("Mul of small factors")
	}
	if Mul(1<<40, 1<<30) != math.MaxInt64 || Mul(-1, 3) != math.MaxInt64 {
		t.Error("Mul must saturate on overflow and negative factors")
	}
	if Add(1, 2) != 3 || Add(math.MaxInt64, 1) != math.MaxInt64 || Add(-4) != math.MaxInt64 {
		t.Error("Add")
	}
}

func TestBudgetAndCheck(t *testing.T) {
	dir := t.TempDir()
	mem := filepath.Join(dir, "meminfo")
	if err := os.WriteFile(mem, []byte("MemTotal:       16000000 kB\nMemAvailable:    2097152 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := MeminfoPath
	MeminfoPath = mem
	t.Cleanup(func() { MeminfoPath = old })
	t.Setenv(EnvMaxMemory, "")
	t.Setenv("GOMEMLIMIT", "")
	if b, err := Budget(); err != nil || b != 2<<30 {
		t.Fatalf("budget from MemAvailable = %d, %v; want 2 GiB", b, err)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	if b, _ := Budget(); b != 1<<30 {
		t.Errorf("GOMEMLIMIT 1GiB: budget %d", b)
	}
	t.Setenv(EnvMaxMemory, "100MiB")
	if b, _ := Budget(); b != 100<<20 {
		t.Errorf("%s=100MiB: budget %d", EnvMaxMemory, b)
	}
	if err := CheckCount("x.csv:3: node id 99", 100<<20, 1); err != nil {
		t.Errorf("exactly the budget: %v", err)
	}
	err := CheckCount("x.csv:3: node id 99", 100<<20+1, 1)
	if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), "x.csv:3: node id 99: needs about 100.0 MiB") ||
		!strings.Contains(err.Error(), EnvMaxMemory) || strings.Contains(err.Error(), "\n") {
		t.Errorf("over the budget: %v", err)
	}
	if err := CheckCount("w", 1<<40, 1<<40); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than 8 EiB") {
		t.Errorf("overflowing product: %v", err)
	}
	t.Setenv(EnvMaxMemory, "NaN")
	if err := Check("w", 1); err == nil || !strings.Contains(err.Error(), EnvMaxMemory+`="NaN"`) {
		t.Errorf("malformed %s: %v", EnvMaxMemory, err)
	}
}

func TestReader(t *testing.T) {
	data := bytes.Repeat([]byte("a"), 1000)
	got, err := io.ReadAll(Reader(bytes.NewReader(data), 1000, "exact"))
	if err != nil || len(got) != 1000 {
		t.Errorf("exactly the cap: %d bytes, %v", len(got), err)
	}
	got, err = io.ReadAll(Reader(bytes.NewReader(data), 999, "download of x.npz"))
	if !errors.Is(err, ErrTooLarge) || len(got) != 999 || !strings.HasPrefix(err.Error(), "download of x.npz: more than 999 B") {
		t.Errorf("one byte over: %d bytes, %v", len(got), err)
	}
	// An endless stream stops at the cap.
	got, err = io.ReadAll(Reader(endless{}, 1<<20, "endless"))
	if !errors.Is(err, ErrTooLarge) || len(got) != 1<<20 {
		t.Errorf("endless: %d bytes, %v", len(got), err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

func TestFinite(t *testing.T) {
	if Finite("-lr", 0.1) != nil || Finite("-lr", math.NaN()) == nil || Finite("-lr", math.Inf(-1)) == nil {
		t.Error("Finite")
	}
}
