package nbtrain

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/synth"
)

func TestCompareTrainsEveryMethod(t *testing.T) {
	cfg := synth.DefaultCSBMConfig()
	cfg.NumNodes, cfg.NumClasses, cfg.NumFeatures = 120, 3, 8
	cfg.HeterophilyWeights = nil
	cfg.Splits = synth.SplitOptions{NumSplits: 1}
	c, err := synth.GenerateCSBM(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	view, err := Compare([]string{"mlp", "gcn"}, 3, 5)(c.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if view.Len() != 2 {
		t.Fatalf("%d parts, want table and figure", view.Len())
	}
	block := view.HTMLBlock()
	for _, title := range []string{"MLP", "GCN"} {
		m := regexp.MustCompile(`>` + title + `</td><td[^>]*>(?:<[^>]+>)*([0-9.]+)`).FindStringSubmatch(block)
		if m == nil {
			t.Fatalf("no %s row with a test accuracy in %s", title, block)
		}
		if acc, _ := strconv.ParseFloat(m[1], 64); acc < 0 || acc > 100 {
			t.Errorf("%s test accuracy %v", title, acc)
		}
	}
	if !strings.Contains(block, "3 epochs") {
		t.Error("caption lacks the epochs")
	}

	g, err := c.Graph.WithSplits(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compare([]string{"mlp"}, 3, 5)(g); err == nil || !strings.Contains(err.Error(), "has no splits") {
		t.Errorf("no splits: %v", err)
	}
}
