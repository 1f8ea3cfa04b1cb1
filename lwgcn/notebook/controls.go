package notebook

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// HeadlessEnv is the environment variable the headless runner
// (kernel/run_notebooks.py) sets to "1": no front end will answer GoNB's
// widgets, so Explorer shows the controls' default state and returns.
const HeadlessEnv = "LWGCN_HEADLESS"

// Headless reports whether LWGCN_HEADLESS is "1", "true", "yes" or "on".
func Headless() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(HeadlessEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Control is one input of an Explorer: a slider over Min, Min+Step, ..., Max,
// or, when Options is set, a choice among them (Default is then the index).
type Control struct {
	Name           string
	Min, Max, Step float64
	Default        float64
	Options        []string
	// AppliesWhen, if set, says for which values the control has an effect
	// (e.g. an SBM's node count not when another generator is chosen); the
	// values' caption leaves it out otherwise. Nil: always.
	AppliesWhen func(Values) bool
}

// When is c with AppliesWhen set to applies.
func (c Control) When(applies func(Values) bool) Control {
	c.AppliesWhen = applies
	return c
}

// Slider is a numeric control over [min, max] in steps of step.
func Slider(name string, min, max, step, def float64) Control {
	return Control{Name: name, Min: min, Max: max, Step: step, Default: def}
}

// Select is a choice among options, def is the index of the default one.
func Select(name string, options []string, def int) Control {
	return Control{Name: name, Options: append([]string{}, options...), Default: float64(def), Max: float64(len(options) - 1), Step: 1}
}

// IsSelect reports whether the control is a choice among options.
func (c Control) IsSelect() bool { return c.Options != nil }

// Positions is the number of positions of the control (slider stops or options).
func (c Control) Positions() int {
	if c.IsSelect() {
		return len(c.Options)
	}
	return int(math.Round((c.Max-c.Min)/c.Step)) + 1
}

// ValueAt is the value at position pos (clamped to the range): Min + pos Step,
// or the option index.
func (c Control) ValueAt(pos int) float64 {
	pos = max(0, min(pos, c.Positions()-1))
	if c.IsSelect() {
		return float64(pos)
	}
	// Rounded to the step's decimals so that 0.1 steps read 0.3, not 0.30000000000000004.
	v := c.Min + float64(pos)*c.Step
	return roundTo(v, decimals(c.Step))
}

// PositionOf is the position nearest to v.
func (c Control) PositionOf(v float64) int {
	if c.IsSelect() {
		return max(0, min(int(math.Round(v)), len(c.Options)-1))
	}
	return max(0, min(int(math.Round((v-c.Min)/c.Step)), c.Positions()-1))
}

// Format is the value as shown next to the control.
func (c Control) Format(v float64) string {
	if c.IsSelect() {
		return c.Options[c.PositionOf(v)]
	}
	return strconv.FormatFloat(v, 'f', decimals(c.Step), 64)
}

// validate returns an error naming the control when it cannot be shown.
func (c Control) validate() error {
	switch {
	case c.Name == "":
		return errors.New("notebook: control with an empty name")
	case c.IsSelect() && len(c.Options) == 0:
		return fmt.Errorf("notebook: control %q: no options", c.Name)
	case c.IsSelect() && (c.Default < 0 || int(c.Default) >= len(c.Options) || c.Default != math.Trunc(c.Default)):
		return fmt.Errorf("notebook: control %q: default %v is not an option index in [0, %d)", c.Name, c.Default, len(c.Options))
	case c.IsSelect():
		return nil
	case !(c.Step > 0) || math.IsInf(c.Step, 0):
		return fmt.Errorf("notebook: control %q: step %v must be positive", c.Name, c.Step)
	case !(c.Max >= c.Min) || math.IsInf(c.Min, 0) || math.IsInf(c.Max, 0):
		return fmt.Errorf("notebook: control %q: range [%v, %v] is empty or infinite", c.Name, c.Min, c.Max)
	case c.Positions() > 100_000:
		return fmt.Errorf("notebook: control %q: %d positions (at most 100000)", c.Name, c.Positions())
	case c.Default < c.Min || c.Default > c.Max:
		return fmt.Errorf("notebook: control %q: default %v outside [%v, %v]", c.Name, c.Default, c.Min, c.Max)
	}
	return nil
}

// decimals is the number of decimals needed to print multiples of step.
func decimals(step float64) int {
	for d := 0; d < 8; d++ {
		if s := step * math.Pow10(d); math.Abs(s-math.Round(s)) < 1e-9*math.Max(1, s) {
			return d
		}
	}
	return 8
}

func roundTo(v float64, d int) float64 {
	p := math.Pow10(d)
	return math.Round(v*p) / p
}

// Values are the controls' current values, by control name.
type Values struct {
	controls []Control
	values   []float64
}

// DefaultValues are the controls' values at their defaults (what a
// headless run draws).
func DefaultValues(controls []Control) Values { return newValues(controls) }

func newValues(controls []Control) Values {
	v := Values{controls: controls, values: make([]float64, len(controls))}
	for i, c := range controls {
		v.values[i] = c.ValueAt(c.PositionOf(c.Default))
	}
	return v
}

func (v Values) index(name string) int {
	for i, c := range v.controls {
		if c.Name == name {
			return i
		}
	}
	panic(fmt.Sprintf("notebook: no control named %q", name))
}

// Float is the value of the named slider (the option index of a select).
// It panics if there is no such control.
func (v Values) Float(name string) float64 { return v.values[v.index(name)] }

// Int is Float rounded to the nearest integer.
func (v Values) Int(name string) int { return int(math.Round(v.Float(name))) }

// Choice is the chosen option of the named select (for a slider: its value as text).
func (v Values) Choice(name string) string {
	i := v.index(name)
	return v.controls[i].Format(v.values[i])
}

// String lists the values of the controls that apply (Control.AppliesWhen),
// "name = value" separated by commas.
func (v Values) String() string {
	var parts []string
	for i, c := range v.controls {
		if c.AppliesWhen != nil && !c.AppliesWhen(v) {
			continue
		}
		parts = append(parts, c.Name+" = "+c.Format(v.values[i]))
	}
	return strings.Join(parts, ", ")
}

func (v Values) with(i, pos int) Values {
	out := Values{controls: v.controls, values: append([]float64(nil), v.values...)}
	out.values[i] = v.controls[i].ValueAt(pos)
	return out
}
