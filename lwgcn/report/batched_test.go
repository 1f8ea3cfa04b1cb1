package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBatchedSpeedSection(t *testing.T) {
	dir := t.TempDir()
	if s, err := batchedSpeedSection(dir); err != nil || s != "" {
		t.Fatalf("no file: got %q, %v; want nothing", s, err)
	}
	path := filepath.Join(dir, "bench-batched.json")
	data := `{"models": {"lwgcn": "full epoch"}, "notes": {"lwgcn": "Shared machine."}, "rows": [
	  {"model": "lwgcn", "dataset": "texas", "gomaxprocs": 1, "runs_per_batch": 10, "blocks": 3,
	   "batched_ms_per_split_epoch": 4, "alone_ms_per_split_epoch": 10, "batched_cpu_ms_per_split_epoch": 3,
	   "alone_cpu_ms_per_split_epoch": 9, "batched_peak_rss_bytes": 209715200, "alone_peak_rss_bytes": 104857600,
	   "authors_lwgcn_ms_per_epoch": 19.4}]}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := batchedSpeedSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	// speed-up 10/4 = 2.50x; authors' 19.4/4 = 4.85 -> 4.8x (%.1f rounds half to even on the binary value).
	row := "| texas | 1 | 10 | 4.00 | 10.00 | 2.50x | 3.00 | 9.00 | 200 / 100 MiB | 19.4 | 4.8x |"
	if !strings.Contains(s, row) || !strings.Contains(s, "**lwgcn**: full epoch. Shared machine.") {
		t.Fatalf("section lacks the row %q or the model line:\n%s", row, s)
	}
	if err := os.WriteFile(path, []byte(`{"rows": [{"model": "gcn", "dataset": "texas", "gomaxprocs": 1, "runs_per_batch": 10}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := batchedSpeedSection(dir); err == nil || !strings.Contains(err.Error(), "bench-batched.json: row 0 lacks a model, a dataset, positive times, runs or gomaxprocs") {
		t.Fatalf("bad row: got %v", err)
	}
}
