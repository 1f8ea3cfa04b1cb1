package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lwgcn/toolkit/internal/dstest"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// lwgcnBinary builds the command once per test binary.
func lwgcnBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lwgcn-cli-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "lwgcn")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building lwgcn: %v", buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// cliTimeout bounds one command: every case is refused before any training
// or trains one short run, so a check that regressed fails the test instead
// of starting a whole table.
const cliTimeout = 2 * time.Minute

// runLwgcn runs the built command and returns its exit status and output.
// reproduce, sweep and grid write into a temporary results file, never the
// repository's results/.
func runLwgcn(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	switch args[0] {
	case "reproduce", "sweep", "grid":
		args = append(args, "-results", filepath.Join(t.TempDir(), "results.json"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, lwgcnBinary(t), args...)
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return status, o.String(), e.String()
}

// The exit statuses `lwgcn help` documents: 2 for a rejected command line
// (unknown command or flag alike: unknown flags used to exit 1), 1 for a
// command that failed, 0 for help. Each bad value gets one line naming the
// flag or parameter.
func TestCommandLineErrors(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"help"}, 0, "Exit status: 0 success, 1 the command failed, 2 the command line was rejected"},
		{[]string{"nosuch"}, 2, `lwgcn: unknown command "nosuch"`},
		{[]string{"train", "-nosuch"}, 2, "flag provided but not defined: -nosuch"},
		{[]string{"train", "-epochs", "x"}, 2, `invalid value "x" for flag -epochs`},
		{[]string{"train"}, 2, "-dataset is required"},
		{[]string{"bench-engine", "-baseline", "old=/no/such/lwgcn"}, 2, `invalid value "old=/no/such/lwgcn" for flag -baseline: stat /no/such/lwgcn: no such file or directory`},
		{[]string{"bench-engine", "-baseline", "kernels on=/bin/true"}, 2, `"kernels on": the names "kernels off" and "kernels on" are this binary's`},
		{[]string{"bench-engine", "-baseline", "/bin/true", "-baseline", "main=/bin/true"}, 2, `variant "main" given twice`},
		// -h is help (it used to be the homophily flag).
		{[]string{"sweep", "-h"}, 0, "-homophily string"},
		{[]string{"sweep", "-h", "0.5"}, 2, "-h 0.5: -h is help; the homophily values are set with -homophily 0.5"},
		{[]string{"sweep", "-degrees", "0"}, 2, `-degrees "0": 0 is not > 0 (a graph without edges has no homophily)`},
		{[]string{"sweep", "-degrees", "NaN"}, 2, `-degrees "NaN": "NaN" is not a finite number`},
		{[]string{"sweep", "-homophily", "0,1.5"}, 2, `-homophily "0,1.5": 1.5 is outside [0, 1]`},
		{[]string{"sweep", "-epochs", "0"}, 2, "-epochs 0: must be >= 1"},
		{[]string{"reproduce", "table2", "-epochs", "-5"}, 2, "-epochs -5: must be >= 1 (leave it out for each method's reference)"},
		{[]string{"reproduce", "table2", "-epochs", "0"}, 2, "-epochs 0: must be >= 1"},
		{[]string{"reproduce", "table2", "-max-runs", "-1"}, 2, "-max-runs -1: must be >= 0"},
		{[]string{"reproduce", "table2", "-splits", "3-1"}, 2, `-splits "3-1": "3-1" is not a split number or an ascending range`},
		{[]string{"reproduce", "table2", "-splits", "0,x"}, 2, `-splits "0,x": "x" is not a split number`},
		{[]string{"reproduce", "table9"}, 2, `unknown table "table9"`},
		{[]string{"reproduce", "table2", "-methods", "gcn,gnc"}, 2, `-methods: unknown method "gnc" (have `},
		{[]string{"reproduce", "table3", "-datasets", "texas,texsa"}, 2, `-datasets: unknown dataset "texsa" (known: `},
		{[]string{"sweep", "-base", "chamelon"}, 2, `-base: unknown dataset "chamelon"`},
		{[]string{"grid", "-datasets", "texas", "-epochs", "-1"}, 2, "-epochs -1: must be >= 1"},
		{[]string{"reproduce", "table2", "-procs", "0"}, 2, "-procs 0: must be >= 1"},
		{[]string{"reproduce", "table2", "-worker", "2/2"}, 2, `-worker "2/2": want i/N with N >= 2 and 0 <= i < N`},
		{[]string{"reproduce", "table2", "-worker", "1"}, 2, `-worker "1": want i/N`},
		{[]string{"reproduce", "table2", "-procs", "2", "-worker", "0/2"}, 2, "-worker and -procs: -procs starts its workers itself"},
		{[]string{"reproduce", "table2", "-batch", "-1"}, 2, "-batch -1: must be >= 0 (0: auto, 1: every run alone, N: N runs per computation)"},
		{[]string{"sweep", "-batch", "-2"}, 2, "-batch -2: must be >= 0"},
		{[]string{"sweep", "-procs", "0"}, 2, "-procs 0: must be >= 1"},
		{[]string{"sweep", "-worker", "0/1"}, 2, `-worker "0/1": want i/N with N >= 2`},
		{[]string{"bench", "-lwgcn-only", "-batched"}, 2, "-batched must come first: lwgcn bench -batched [bench-batched flags]"},
		{[]string{"bench", "-batched", "-model", "nope"}, 1, `-model "nope": want lwgcn or one of asgc, bmgcn, fagcn`},
		{[]string{"merge", "a.json"}, 2, "merge: want -into FILE and at least one file to merge"},
		{[]string{"merge", "-into", filepath.Join(t.TempDir(), "out.json"), "/nonexistent/b.json"}, 1, "merge: /nonexistent/b.json: no such file"},
		{[]string{"train", "-dataset", "texas", "-epochs", "0"}, 2, "-epochs 0: must be >= 1 (leave it out for the model's reference)"},
		{[]string{"train", "-dataset", "texas", "-model", "gcn", "-variant", "dense"}, 2, "-variant: not a setting of -model gcn (it has -epochs, -hidden"},
		{[]string{"train", "-dataset", "texas", "-model", "lwgcn", "-heads", "4"}, 2, "-heads: not a setting of -model lwgcn (it has -variant, -layers"},
		{[]string{"train", "-dataset", "texas", "-model", "h2gcn", "-extra", "relu"}, 2, `-extra "relu": want name=value[,name=value] with finite numbers, got "relu"`},
		{[]string{"train", "-dataset", "texas", "-model", "lwgcn", "-extra", "relu=0"}, 2, "-extra: a baseline's setting; -model lwgcn does not have it"},
	} {
		status, _, stderr := runLwgcn(t, c.args...)
		out := stderr
		if c.args[0] == "help" {
			_, out, _ = runLwgcn(t, c.args...)
		}
		if status != c.status || !strings.Contains(out, c.want) {
			t.Errorf("lwgcn %s: exit %d, want %d with %q; stderr:\n%s", strings.Join(c.args, " "), status, c.status, c.want, out)
		}
	}
}

// Baseline settings out of range are rejected (exit 2) with the parameter
// named, as LW-GCN's are; a diverging
// run stops naming the epoch; BM-GCN trains for -epochs 40 with its MLP
// pre-training scaled (8 of 40 epochs), which quick mode needs too.
func TestTrainRejectsBadSettings(t *testing.T) {
	data := []string{"-mirror", dstest.SharedDir(t), "-cache", t.TempDir(), "-splits", "0", "-quiet"}
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"-model", "gcn", "-dropout", "1.5"}, 2, "lwgcn train: zoo: gcn: dropout must be in [0, 1), got 1.5"},
		{[]string{"-model", "gcn", "-dropout", "-0.5"}, 2, "zoo: gcn: dropout must be in [0, 1), got -0.5"},
		{[]string{"-model", "gcnii", "-layers", "-1"}, 2, "zoo: gcnii: layers must be >= 0, got -1"},
		{[]string{"-model", "gcn", "-hidden", "0"}, 2, "zoo: gcn: hidden must be >= 1, got 0"},
		{[]string{"-model", "gat", "-heads", "0"}, 2, "zoo: gat: heads must be >= 1, got 0"},
		{[]string{"-model", "lwgcn", "-dropout", "1"}, 2, "lwgcn: dropout must be in [0, 1) (f_C 1, f_P 0)"},
		{[]string{"-model", "gcn", "-lr", "1e6"}, 1, "split 0, seed 15: epoch "},
		{[]string{"-model", "bmgcn", "-epochs", "40"}, 0, `"mlp_epochs":8`},
	} {
		status, stdout, stderr := runLwgcn(t, append(append([]string{"train", "-dataset", "texas"}, c.args...), data...)...)
		out := stderr + stdout
		if status != c.status || !strings.Contains(out, c.want) {
			t.Errorf("lwgcn train %s: exit %d, want %d with %q; output:\n%s", strings.Join(c.args, " "), status, c.status, c.want, out)
		}
		if c.want == "split 0, seed 15: epoch " && !strings.Contains(out, "training diverged") {
			t.Errorf("lr 1e6: no divergence reported:\n%s", out)
		}
	}
}

// A dataset whose mirror file has the wrong size is an error row with the
// reason, and the command fails (it used to drop the dataset and exit 0).
func TestDatasetsReportsDamagedFiles(t *testing.T) {
	shared := dstest.SharedDir(t)
	mirror := t.TempDir()
	for _, rel := range []string{"geom-gcn/new_data/texas/out1_node_feature_label.txt", "geom-gcn/new_data/texas/out1_graph_edges.txt"} {
		b, err := os.ReadFile(filepath.Join(shared, rel))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(rel, "edges.txt") {
			b = b[:100] // truncated
		}
		p := filepath.Join(mirror, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	status, stdout, stderr := runLwgcn(t, "datasets", "-mirror", mirror, "-cache", t.TempDir())
	want := "texas: error: damaged local file: " + filepath.Join(mirror, "geom-gcn/new_data/texas/out1_graph_edges.txt") +
		" has 100 bytes, want "
	if status != 1 || !strings.Contains(stdout, want) || !strings.Contains(stderr, "lwgcn datasets: 1 of 1 datasets failed (texas)") {
		t.Errorf("exit %d; stdout:\n%s\nstderr:\n%s", status, stdout, stderr)
	}
}

// train -batch 3 trains three runs in one computation and reports for each
// run what -batch 1 reports (every model has the runs axis, a baseline
// without layers of its own for R runs included).
func TestTrainBatchEqualsAlone(t *testing.T) {
	data := []string{"-mirror", dstest.SharedDir(t), "-cache", t.TempDir(), "-splits", "0-2", "-epochs", "6", "-quiet"}
	for _, model := range []string{"gcn", "h2gcn"} {
		var lines [2][]string
		for i, batch := range []string{"1", "3"} {
			status, stdout, stderr := runLwgcn(t, append([]string{"train", "-dataset", "texas", "-model", model, "-batch", batch}, data...)...)
			if status != 0 {
				t.Fatalf("%s -batch %s: exit %d\n%s", model, batch, status, stderr)
			}
			for _, l := range strings.Split(stdout, "\n") {
				if strings.HasPrefix(l, "  split ") || strings.HasPrefix(l, "test accuracy:") {
					lines[i] = append(lines[i], l)
				}
			}
		}
		if len(lines[0]) != 4 || !slices.Equal(lines[0], lines[1]) {
			t.Errorf("%s: -batch 1 reports\n%s\n-batch 3 reports\n%s", model, strings.Join(lines[0], "\n"), strings.Join(lines[1], "\n"))
		}
	}
}
