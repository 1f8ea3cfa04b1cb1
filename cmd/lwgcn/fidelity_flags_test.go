package main

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
)

// -row-normalize: auto keeps each model's reference (SuperGAT reads Cora's
// raw features), yes and no override it for baselines and LW-GCN alike, and
// any other value is a usage error naming the flag.
func TestTrainRowNormalizeFlag(t *testing.T) {
	data := []string{"-mirror", dstest.SharedDir(t), "-cache", t.TempDir(), "-seeds", "10", "-epochs", "1", "-quiet"}
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"-model", "supergat"}, 0, `"raw_features":1`},
		{[]string{"-model", "supergat", "-row-normalize", "yes"}, 0, `"raw_features":0`},
		{[]string{"-model", "gcn", "-row-normalize", "no"}, 0, `"raw_features":1`},
		{[]string{"-model", "mlp", "-row-normalize", "no"}, 0, "test accuracy"},
		{[]string{"-model", "mlp", "-row-normalize", "maybe"}, 2, `-row-normalize "maybe": want "auto", "yes" or "no"`},
	} {
		status, stdout, stderr := runLwgcn(t, append(append([]string{"train", "-dataset", "cora"}, c.args...), data...)...)
		if out := stderr + stdout; status != c.status || !strings.Contains(out, c.want) {
			t.Errorf("lwgcn train %s: exit %d, want %d with %q; output:\n%s", strings.Join(c.args, " "), status, c.status, c.want, out)
		}
	}
}

// -csbm-separation belongs to -base csbm and must be a finite number >= 0.
func TestSweepCSBMSeparationFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "-base", "chameleon", "-csbm-separation", "1"}, "-csbm-separation: a setting of -base csbm, not of -base chameleon"},
		{[]string{"sweep", "-base", "csbm", "-csbm-separation", "-1"}, "-csbm-separation -1: must be a finite number >= 0"},
		{[]string{"sweep", "-base", "csbm", "-csbm-separation", "Inf"}, "-csbm-separation +Inf: must be a finite number >= 0"},
	} {
		if status, _, stderr := runLwgcn(t, c.args...); status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("lwgcn %s: exit %d, want 2 with %q; stderr:\n%s", strings.Join(c.args, " "), status, c.want, stderr)
		}
	}
}
