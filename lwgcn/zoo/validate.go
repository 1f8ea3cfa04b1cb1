package zoo

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Validate checks the ranges every entry shares, naming the parameter: sizes
// and epochs >= 0 (0 keeps an entry's own default where it has one), dropout
// rates (Dropout and every extra named *dropout* or "dprate") in [0, 1), the
// learning rate > 0, the weight decay >= 0, every number finite. Each
// entry's Build checks what only it reads (e.g. GAT's heads >= 1).
// NewTrainer calls it before Build.
func (h Hyper) Validate() error {
	for _, c := range []struct {
		name string
		v    int
	}{{"hidden", h.Hidden}, {"layers", h.Layers}, {"heads", h.Heads}, {"epochs", h.Epochs}} {
		if c.v < 0 {
			return fmt.Errorf("%s must be >= 0, got %d", c.name, c.v)
		}
	}
	if err := checkRate("dropout", h.Dropout); err != nil {
		return err
	}
	if !(h.LR > 0) || math.IsInf(h.LR, 0) {
		return fmt.Errorf("lr must be a positive number, got %v", h.LR)
	}
	if !(h.WeightDecay >= 0) || math.IsInf(h.WeightDecay, 0) {
		return fmt.Errorf("weight decay must be a number >= 0, got %v", h.WeightDecay)
	}
	for name, v := range map[string]float64{"alpha": h.Alpha, "lambda": h.Lambda} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s must be finite, got %v", name, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(h.Extra)) {
		v := h.Extra[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("extra %q must be finite, got %v", k, v)
		}
		if strings.Contains(k, "dropout") || k == "dprate" {
			if err := checkRate("extra "+k, v); err != nil {
				return err
			}
		}
	}
	for _, k := range []string{RawFeaturesKey, TiesLaterKey, PatienceBothKey} {
		if v, ok := h.Extra[k]; ok && v != 0 && v != 1 {
			return fmt.Errorf("extra %q must be 0 or 1, got %v", k, v)
		}
	}
	if v := h.Get(SelectKey, 0); v != 0 && v != 1 && v != 2 {
		return fmt.Errorf("extra %q must be 0 (validation accuracy), 1 (loss) or 2 (ROC-AUC), got %v", SelectKey, v)
	}
	if v := h.Get(PatienceKey, 0); v < 0 || v != math.Trunc(v) {
		return fmt.Errorf("extra %q must be a whole number >= 0 (0: no early stop), got %v", PatienceKey, v)
	}
	if h.Get(PatienceBothKey, 0) == 1 && h.Get(PatienceKey, 0) == 0 {
		return fmt.Errorf("extra %q needs a %q > 0", PatienceBothKey, PatienceKey)
	}
	return nil
}

// checkRate checks a dropout rate: in [0, 1) (1 would drop everything).
func checkRate(name string, v float64) error {
	if !(v >= 0 && v < 1) {
		return fmt.Errorf("%s must be in [0, 1), got %v", name, v)
	}
	return nil
}

// atLeast returns an error naming the parameter when v < lo.
func atLeast(name string, v, lo int) error {
	if v < lo {
		return fmt.Errorf("%s must be >= %d, got %d", name, lo, v)
	}
	return nil
}
