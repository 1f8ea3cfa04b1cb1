package report

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// TestRerunsSection: reruns are matched to the tables' records by key, run
// by run; a cell's row counts the identical test accuracies and gives both
// means (hand-computed) and both commits; reruns without a record are
// counted and left out.
func TestRerunsSection(t *testing.T) {
	dir := t.TempDir()
	run := func(key, model string, split int, acc float64, commit string) results.Run {
		return results.Run{Key: key, Experiment: "table2", Dataset: "texas", Model: model, Split: split, Seed: 15,
			TestAcc: acc, Provenance: results.Provenance{Commit: commit}}
	}
	writeJSONFile(t, dir, "table2.json", map[string]any{"version": 1, "runs": []results.Run{
		run("t/texas/lwgcn/0", "lwgcn", 0, 0.80, "aaaaaaa1111"), run("t/texas/lwgcn/1", "lwgcn", 1, 0.90, "aaaaaaa1111"),
		run("t/texas/lwgcn/2", "lwgcn", 2, 0.60, "aaaaaaa1111"), run("t/texas/mlp/0", "mlp", 0, 0.70, "aaaaaaa1111")}})
	writeJSONFile(t, dir, "reruns.json", map[string]any{"version": 1, "runs": []results.Run{
		run("t/texas/lwgcn/0", "lwgcn", 0, 0.80, "bbbbbbb2222"), run("t/texas/lwgcn/1", "lwgcn", 1, 0.70, "bbbbbbb2222"),
		run("t/texas/lwgcn/2", "lwgcn", 2, 0.60, "bbbbbbb2222"), run("t/texas/lwgcn/other-settings", "lwgcn", 3, 0.50, "bbbbbbb2222")}})
	got, err := rerunsSection(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Recorded 80, 90, 60: 76.7 ± 12.5 (population std: sqrt(466.7/3));
	// rerun 80, 70, 60: 70.0 ± 8.2 (sqrt(200/3)); two identical.
	for _, want := range []string{
		"| Texas | LW-GCN | 3 | 2 | 76.7 ± 12.5 | aaaaaaa | 70.0 ± 8.2 | bbbbbbb | -6.7 |",
		"1 reruns have no record of the same key",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "MLP") {
		t.Errorf("a cell without reruns has a row:\n%s", got)
	}
	// No reruns file: no section.
	if got, err := rerunsSection(t.TempDir()); err != nil || got != "" {
		t.Errorf("without reruns: %q, %v; want no section", got, err)
	}
}
