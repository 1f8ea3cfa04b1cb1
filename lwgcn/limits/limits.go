// Package limits bounds what inputs may make lwgcn allocate: a size read
// from a file, a flag or an environment variable is turned into an estimate
// of bytes before anything is allocated, and compared with a memory budget,
// so that a typo (a node id 4000000000, -hidden 1e9) or a hostile file (a
// header announcing 10^12 elements, a decompression bomb) fails in one line
// naming the input instead of ending in the runtime's "fatal error: out of
// memory".
//
// The budget is LWGCN_MAX_MEMORY when set (bytes, or with a unit: 512MiB,
// 16GiB, 8GB), else the memory the machine has available now (MemAvailable
// of /proc/meminfo; DefaultBudget where it cannot be read), lowered to
// GOMEMLIMIT when that is set. It is one input's bound, not an accounting of
// the process: estimates are of the allocation an input asks for.
//
// Plain Go, no imports from the module: every loader and command can use it.
package limits

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// EnvMaxMemory names the environment variable that sets the budget.
const EnvMaxMemory = "LWGCN_MAX_MEMORY"

// DefaultBudget is the budget where neither LWGCN_MAX_MEMORY nor
// /proc/meminfo says more.
const DefaultBudget int64 = 8 << 30

// MeminfoPath is where the available memory is read (a variable for tests).
var MeminfoPath = "/proc/meminfo"

// ErrTooLarge is what the errors of Check and Reader are (errors.Is).
var ErrTooLarge = errors.New("too large")

// tooLarge is an error that reads as its message and is ErrTooLarge.
type tooLarge struct{ msg string }

func (e tooLarge) Error() string        { return e.msg }
func (e tooLarge) Is(target error) bool { return target == ErrTooLarge }

// Budget returns the number of bytes one input may ask for, and an error
// when LWGCN_MAX_MEMORY is malformed.
func Budget() (int64, error) {
	b, _, err := budget()
	return b, err
}

// budget is Budget and where it comes from, for messages.
func budget() (int64, string, error) {
	if v, ok := os.LookupEnv(EnvMaxMemory); ok && strings.TrimSpace(v) != "" {
		b, err := ParseBytes(v)
		if err != nil {
			return 0, "", fmt.Errorf("%s=%q: %w", EnvMaxMemory, v, err)
		}
		return b, EnvMaxMemory, nil
	}
	b, from := DefaultBudget, "the default budget; set "+EnvMaxMemory+" to change it"
	if avail, ok := memAvailable(); ok {
		b, from = avail, "the memory available; set "+EnvMaxMemory+" to change it"
	}
	if v := os.Getenv("GOMEMLIMIT"); v != "" && v != "off" {
		if l, err := ParseBytes(v); err == nil && l < b {
			b, from = l, "GOMEMLIMIT"
		}
	}
	return b, from, nil
}

// memAvailable reads MemAvailable (kB) from MeminfoPath.
func memAvailable() (int64, bool) {
	data, err := os.ReadFile(MeminfoPath)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "MemAvailable:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 || kb > math.MaxInt64/1024 {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

// units are the suffixes ParseBytes accepts (case-insensitive), longest
// first so that "kib" is not read as "b".
var units = []struct {
	suffix string
	scale  float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40}, {"b", 1},
}

// ParseBytes reads a positive byte count: "1073741824", "512MiB", "16GiB",
// "1.5GB" (K, M, G, T alone are binary, as in GOMEMLIMIT's KiB...).
func ParseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	scale := 1.0
	for _, u := range units {
		if n, ok := strings.CutSuffix(t, u.suffix); ok {
			t, scale = strings.TrimSpace(n), u.scale
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a byte count (e.g. 16GiB, 512MiB)", s)
	}
	x *= scale
	if !(x >= 1) || x >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a byte count between 1 B and 8 EiB", s)
	}
	return int64(x), nil
}

// Mul is the product of non-negative factors, math.MaxInt64 when it
// overflows (or a factor is negative: a size that went wrong).
func Mul(factors ...int64) int64 {
	p := int64(1)
	for _, f := range factors {
		if f < 0 {
			return math.MaxInt64
		}
		if f != 0 && p > math.MaxInt64/f {
			return math.MaxInt64
		}
		p *= f
	}
	return p
}

// Add is the sum of non-negative terms, math.MaxInt64 when it overflows.
func Add(terms ...int64) int64 {
	s := int64(0)
	for _, t := range terms {
		if t < 0 || s > math.MaxInt64-t {
			return math.MaxInt64
		}
		s += t
	}
	return s
}

// Check returns nil when bytes fit the budget, else an error naming what
// asks for them (e.g. `features.csv:8: feature index 1999999999`).
func Check(what string, bytes int64) error {
	b, from, err := budget()
	if err != nil {
		return err
	}
	if bytes < 0 || bytes > b {
		need := "about " + FormatBytes(bytes)
		if bytes < 0 || bytes == math.MaxInt64 {
			need = FormatBytes(bytes) // "more than 8 EiB"
		}
		return tooLarge{fmt.Sprintf("%s: needs %s, more than the memory budget of %s (%s)", what, need, FormatBytes(b), from)}
	}
	return nil
}

// Errorf returns an error that is ErrTooLarge (errors.Is) and reads as
// the formatted message: for caps that are not the memory budget (a
// download's pinned size, a stated decompression limit).
func Errorf(format string, args ...any) error { return tooLarge{fmt.Sprintf(format, args...)} }

// CheckCount is Check for count items of size bytes each.
func CheckCount(what string, count, size int64) error {
	return Check(what, Mul(count, size))
}

// FormatBytes writes a byte count in binary units ("1.5 GiB").
func FormatBytes(b int64) string {
	if b < 0 || b == math.MaxInt64 {
		return "more than 8 EiB"
	}
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	x, i := float64(b), -1
	for x >= unit && i < 5 {
		x /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", x, "KMGTPE"[i])
}

// Reader returns r cut at max bytes: reading byte max+1 fails with an
// error wrapping ErrTooLarge that names what (a download, a decompressed
// member) and the cap. Use it wherever a stream's length is not known from
// a trusted source: downloads, decompression.
func Reader(r io.Reader, max int64, what string) io.Reader {
	return &capReader{r: r, left: max, max: max, what: what}
}

type capReader struct {
	r         io.Reader
	left, max int64
	what      string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, c.err()
	}
	// Read one byte more than allowed, to tell "exactly max" from "more".
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	if int64(n) > c.left {
		n, c.left = int(c.left), -1
		return n, c.err()
	}
	c.left -= int64(n)
	return n, err
}

func (c *capReader) err() error {
	return tooLarge{fmt.Sprintf("%s: more than %s (%d bytes)", c.what, FormatBytes(c.max), c.max)}
}

// Finite returns an error naming name when x is NaN or infinite.
func Finite(name string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%s %v: not a finite number", name, x)
	}
	return nil
}
