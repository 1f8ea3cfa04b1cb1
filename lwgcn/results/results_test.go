package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

func TestPutReopenResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "t.json")
	f, err := Open(path)
	if err != nil || len(f.Runs()) != 0 {
		t.Fatalf("open missing: %v %v", f, err)
	}
	w := 0.97
	for s := 0; s < 3; s++ {
		r := Run{Key: "texas/lwgcn/" + string(rune('0'+s)), Dataset: "texas", Model: "lwgcn", Split: s,
			TestAcc: 0.8 + 0.05*float64(s), SelectionWeight: &w, Provenance: NewProvenance("go")}
		if err := f.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Runs()) != 3 || !g.Has("texas/lwgcn/1") || g.Has("texas/lwgcn/9") {
		t.Fatalf("reopened %d runs", len(g.Runs()))
	}
	r, _ := g.Get("texas/lwgcn/2")
	if r.TestAcc != 0.9 || *r.SelectionWeight != 0.97 || r.Provenance.Backend != "go" {
		t.Errorf("round trip %+v", r)
	}
	// Replacing keeps one record per key.
	r.TestAcc = 0.5
	if err := g.Put(r); err != nil {
		t.Fatal(err)
	}
	h, _ := Open(path)
	if len(h.Runs()) != 3 {
		t.Errorf("replace appended: %d runs", len(h.Runs()))
	}
	// No temp files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the results file", len(entries))
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"version": 1, "runs": [{"key": "a"}, {"key": "a"}]}`), 0o644)
	if _, err := Open(bad); err == nil || !strings.Contains(err.Error(), `key "a" appears twice`) {
		t.Errorf("duplicate key error = %v", err)
	}
	os.WriteFile(bad, []byte(`{"version": 7, "runs": []}`), 0o644)
	if _, err := Open(bad); err == nil || !strings.Contains(err.Error(), "format version 7") {
		t.Errorf("version error = %v", err)
	}
	os.WriteFile(bad, []byte(`{"version": 1, "runs": [`), 0o644)
	if _, err := Open(bad); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("truncated file error = %v", err)
	}
}

func TestMeanStdIsPopulationStd(t *testing.T) {
	s := MeanStd([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if s.Mean != 5 || s.Std != 2 || s.N != 8 {
		t.Errorf("MeanStd = %+v, want 5 ± 2 (population)", s)
	}
	if e := MeanStd(nil); !math.IsNaN(e.Mean) {
		t.Errorf("empty MeanStd = %+v", e)
	}
	a := Accuracy([]Run{{TestAcc: 0.5}, {TestAcc: 0.7}})
	if math.Abs(a.Mean-60) > 1e-9 || math.Abs(a.Std-10) > 1e-9 {
		t.Errorf("Accuracy = %+v", a)
	}
}

func TestGroup(t *testing.T) {
	runs := []Run{{Dataset: "b", Model: "x"}, {Dataset: "a", Model: "x"}, {Dataset: "b", Model: "y"}, {Dataset: "b", Model: "x"}}
	keys, groups := Group(runs, func(r Run) bool { return r.Model == "x" }, func(r Run) string { return r.Dataset })
	if strings.Join(keys, ",") != "a,b" || len(groups["b"]) != 2 {
		t.Errorf("Group keys %v groups %v", keys, groups)
	}
}

// Provenance.String names the Go backend's vector kernels when the record
// has them, and stays as before for records made without the field.
func TestProvenanceStringVector(t *testing.T) {
	p := Provenance{Commit: "0123456789abcdef", Backend: "go", SIMD: true, Machine: "AMD EPYC (family 25 model 1)",
		Date: "2026-11-27T09:00:00Z"}
	if got, want := p.String(), "commit 0123456789, backend go, SIMD, AMD EPYC (family 25 model 1), 2026-11-27"; got != want {
		t.Errorf("without vector: %q, want %q", got, want)
	}
	p.Vector = "AVX2"
	if got, want := p.String(), "commit 0123456789, backend go, SIMD AVX2, AMD EPYC (family 25 model 1), 2026-11-27"; got != want {
		t.Errorf("with vector: %q, want %q", got, want)
	}
	p.Backend = "xla:cpu" // XLA's kernels are its own
	if got := p.String(); strings.Contains(got, "AVX2") {
		t.Errorf("XLA provenance names the Go kernels: %q", got)
	}
	if q := NewProvenance("go"); q.Vector != buildinfo.Get().Vector || q.Machine != buildinfo.Get().Machine {
		t.Errorf("NewProvenance %+v does not carry buildinfo's machine and vector kernels", q)
	}
	// The engine's kernels, as they were when the run started.
	p.Backend, p.Engine, p.Kernels = "go", gokernels.Engine, "gathersum+rng"
	if got, want := p.String(), "commit 0123456789, backend go, SIMD AVX2, lwgcn kernels gathersum+rng, AMD EPYC (family 25 model 1), 2026-11-27"; got != want {
		t.Errorf("with kernels: %q, want %q", got, want)
	}
	p.Kernels = ""
	if got := p.String(); !strings.Contains(got, ", lwgcn kernels off,") {
		t.Errorf("without kernels: %q", got)
	}
	defer gokernels.SetAll(false)()
	if q := NewProvenance("go"); q.Engine != gokernels.Engine || q.Kernels != "" {
		t.Errorf("kernels off: NewProvenance engine %q kernels %v", q.Engine, q.Kernels)
	}
	if q := NewProvenance("xla:cpu"); q.Engine != "" || q.Kernels != "" {
		t.Errorf("XLA: NewProvenance engine %q kernels %v", q.Engine, q.Kernels)
	}
}

// An XLA run with GCNII's loop (or the hash masks) switched off records it,
// and says so in its footer line; pure Go records no forms.
func TestProvenanceForms(t *testing.T) {
	if q := NewProvenance("xla:cpu"); q.Forms != "" {
		t.Errorf("default: forms %q, want none", q.Forms)
	}
	t.Setenv("LWGCN_GCN2_LOOP", "off")
	q := NewProvenance("xla:cpu")
	if q.Forms != "gcnii-unrolled" {
		t.Fatalf("LWGCN_GCN2_LOOP=off: forms %q, want gcnii-unrolled", q.Forms)
	}
	if s := q.String(); !strings.Contains(s, "backend xla:cpu, forms off: gcnii-unrolled,") {
		t.Errorf("footer %q does not name the forms", s)
	}
	if q := NewProvenance("go"); q.Forms != "" {
		t.Errorf("pure Go: forms %q, want none", q.Forms)
	}
	t.Setenv("LWGCN_HASH_MASKS", "off")
	if q := NewProvenance("xla:cpu"); q.Forms != "gcnii-unrolled+rng-masks" {
		t.Errorf("both off: forms %q, want gcnii-unrolled+rng-masks", q.Forms)
	}
	t.Setenv("LWGCN_XLA_DENSE_MAX_NODES", "6000")
	t.Setenv("LWGCN_SEGMENT_GPU_CHUNK_MIB", "256")
	if q := NewProvenance("xla:cuda"); q.Forms != "gcnii-unrolled+rng-masks+dense-max-nodes=6000+segment-gpu-chunk=256MiB" {
		t.Errorf("limits replaced: forms %q", q.Forms)
	} else if s := q.String(); !strings.Contains(s, "forms off: gcnii-unrolled+rng-masks, form limits dense-max-nodes=6000 segment-gpu-chunk=256MiB,") {
		t.Errorf("footer %q does not name the forms off and the limits apart", s)
	}
}
