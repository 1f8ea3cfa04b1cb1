package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

func writeEngineBench(t *testing.T, rows []results.EngineBench) string {
	t.Helper()
	dir := t.TempDir()
	writeJSONFile(t, dir, "bench-engine.json", rows)
	return dir
}

// writeJSONFile writes v as JSON into dir/name (a results file for a
// section under test).
func writeJSONFile(t *testing.T, dir, name string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEngineSection(t *testing.T) {
	prov := results.Provenance{Commit: "0123456789abcdef", Backend: "go", SIMD: true, Vector: "AVX2", Machine: "AMD EPYC (family 25 model 1)",
		Date: "2026-11-28T00:00:00Z", Engine: "compute v0.1.14 + lwgcn patches", Kernels: "gathersum+rng"}
	v := func(name string, ms, others float64) results.EngineVariant {
		return results.EngineVariant{Name: name, MsPerEpoch: ms, CPUMs: ms, OtherCores: others, BlockMs: []float64{ms}, Provenance: prov}
	}
	dir := writeEngineBench(t, []results.EngineBench{
		{Dataset: "texas", Threads: 1, Blocks: 1, Variants: []results.EngineVariant{v("kernels off", 20, 0), v("kernels on", 9, 0.1)}},
		{Dataset: "chameleon", Threads: 2, Blocks: 1, Variants: []results.EngineVariant{v("main", 30, 0.5), v("before runs axis", 26, 0.7), v("kernels off", 29, 0), v("kernels on", 13, 0)}},
	})
	got, err := engineSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| met | before runs axis ms | before runs axis / on | other cores |",
		"| Texas | 1 | – | 20.00 | 9.00 | 2.22x | – | ≥ 2x | yes | – | – | 0.10 |",
		"| Chameleon | 2 | 30.00 | 29.00 | 13.00 | 2.23x | 2.31x | ≤ 12 ms | no | 26.00 | 2.00x | 0.70 |",
		"lwgcn kernels gathersum+rng, AMD EPYC (family 25 model 1)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	// Another run (another host) in bench-engine-<name>.json: a table of its
	// own after the main one, with its own footer; its errors name it.
	intel := prov
	intel.Machine = "Intel(R) Xeon(R) Processor (family 6 model 207)"
	vi := func(name string, ms float64) results.EngineVariant {
		return results.EngineVariant{Name: name, MsPerEpoch: ms, CPUMs: ms, BlockMs: []float64{ms}, Provenance: intel}
	}
	writeJSONFile(t, dir, "bench-engine-intel.json", []results.EngineBench{
		{Dataset: "cora", Threads: 1, Blocks: 1, Variants: []results.EngineVariant{vi("main", 600), vi("kernels off", 500), vi("kernels on", 240)}}})
	got, err = engineSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	first, second := strings.Index(got, "| Texas | 1 |"), strings.Index(got, "The same A/B in another run (results/bench-engine-intel.json")
	if first < 0 || second < first || !strings.Contains(got[second:], "| Cora | 1 | 600.00 | 500.00 | 240.00 | 2.08x | 2.50x | ≥ 2.5x | yes | 0.00 |") ||
		!strings.Contains(got[second:], "(family 6 model 207)") || strings.Contains(got[second:], "AMD EPYC") {
		t.Errorf("the second run's table, after the first with its own footer:\n%s", got)
	}
	writeJSONFile(t, dir, "bench-engine-intel.json", []results.EngineBench{
		{Dataset: "cora", Threads: 1, Blocks: 1, Variants: []results.EngineVariant{vi("kernels on", 240)}}})
	if _, err := engineSection(dir); err == nil || !strings.Contains(err.Error(), "bench-engine-intel.json: cora, 1 threads") {
		t.Errorf("second file without kernels off: %v", err)
	}
	dir = writeEngineBench(t, []results.EngineBench{{Dataset: "cora", Threads: 1, Blocks: 1, Variants: []results.EngineVariant{v("kernels on", 9, 0)}}})
	if _, err := engineSection(dir); err == nil || !strings.Contains(err.Error(), `cora, 1 threads: needs the variants "kernels off" and "kernels on"`) {
		t.Errorf("without kernels off: %v", err)
	}
	if s, err := engineSection(t.TempDir()); s != "" || err != nil {
		t.Errorf("no file: %q, %v", s, err)
	}
}
