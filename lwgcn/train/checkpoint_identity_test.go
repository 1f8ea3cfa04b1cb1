package train

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// A checkpoint is tied to the data, model and settings that made it: a
// finished run is not returned for another graph, model, epochs, optimizer
// or caller setting, and the error names what differs.
func TestCheckpointRefusesOtherDataOrSettings(t *testing.T) {
	g := plantedGraph(t, 60, 3, 4).WithName("texas")
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	dir := t.TempDir()
	cfg := Config{Epochs: 6, LR: 0.01, WeightDecay: 5e-4, CheckpointDir: dir, CheckpointSettings: map[string]string{"hidden": "8"}}
	run := Run{Split: 0, Seed: 7}
	if _, err := quickTrainer(t, g, m, cfg).RunOne(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	other := plantedGraph(t, 60, 3, 5).WithName("wisconsin")
	for _, c := range []struct {
		name string
		edit func(*Config)
		m    nn.Model
		want []string
	}{
		{"another graph", nil, nil, []string{"dataset texas, not wisconsin", "graph "}},
		{"epochs and lr", func(c *Config) { c.Epochs, c.LR = 60, 0.5 }, nil, []string{"epochs 6, not 60", "lr=0.01", "lr=0.5"}},
		{"a caller setting", func(c *Config) { c.CheckpointSettings = map[string]string{"hidden": "16"} }, nil,
			[]string{"hidden 8, not 16"}},
		{"another model", nil, models.MLP{Hidden: 8}, []string{"model gcn, not mlp"}},
	} {
		cfg2, gg := cfg, g
		if c.edit != nil {
			c.edit(&cfg2)
		}
		if c.name == "another graph" {
			gg = other
		}
		var mm nn.Model = m
		if c.m != nil {
			mm = c.m
		}
		tr, err := New(testBackend(t), mm, gg, cfg2)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tr.RunOne(context.Background(), run)
		if err == nil {
			t.Errorf("%s: the checkpoint was used", c.name)
			continue
		}
		msg := err.Error()
		for _, w := range append(c.want, "checkpoint", RunCheckpointDir(dir, run)) {
			if !strings.Contains(msg, w) || strings.Contains(msg, "\n") {
				t.Errorf("%s: error %q does not name %q in one line", c.name, msg, w)
			}
		}
	}
	// A checkpoint without the record of its settings (made before they
	// were recorded) is refused too.
	if err := os.Remove(filepath.Join(RunCheckpointDir(dir, run), identityFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := quickTrainer(t, g, m, cfg).RunOne(context.Background(), run); err == nil ||
		!strings.Contains(err.Error(), "does not record") {
		t.Errorf("checkpoint without its settings: %v", err)
	}
}
