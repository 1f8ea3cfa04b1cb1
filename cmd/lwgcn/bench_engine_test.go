package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/gokernels"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// bench-engine times each variant in its own process with its kernels: the
// rows record the kernels that ran (none, all), and a -baseline binary as
// the variant "main", a named one (name=path) as its own variant.
func TestBenchEngine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bench-engine.json")
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	bin := lwgcnBinary(t)
	cmd := exec.CommandContext(ctx, bin, "bench-engine", "-datasets", "texas", "-procs", "1", "-blocks", "1",
		"-benchtime", "100ms", "-baseline", bin, "-baseline", "before="+bin, "-mirror", dstest.SharedDir(t), "-cache", t.TempDir(), "-out", out)
	var e bytes.Buffer
	cmd.Stderr = &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("lwgcn bench-engine: %v; stderr:\n%s", err, e.String())
	}
	rows, err := results.ReadEngineBench(out)
	if err != nil || len(rows) != 1 || rows[0].Dataset != "texas" || rows[0].Threads != 1 || len(rows[0].Variants) != 4 {
		t.Fatalf("rows %+v (%v)", rows, err)
	}
	var all []string
	for _, k := range gokernels.Kernels {
		all = append(all, k.Name)
	}
	for name, want := range map[string]string{"kernels off": "", "kernels on": strings.Join(all, "+"), "main": strings.Join(all, "+"), "before": strings.Join(all, "+")} {
		v, ok := rows[0].Variant(name)
		if !ok || v.Provenance.Engine != gokernels.Engine || v.Provenance.Kernels != want || len(v.BlockMs) != 1 {
			t.Errorf("variant %q: %+v (found %v), want kernels %q", name, v, ok, want)
		}
	}
	if !strings.Contains(e.String(), "block 1 kernels off") {
		t.Errorf("stderr lacks the block timings:\n%s", e.String())
	}
}
