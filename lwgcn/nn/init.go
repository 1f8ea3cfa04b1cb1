package nn

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// Store parameters used for initialisation.
const (
	// ParamSeed (root scope, int64) seeds weight initialisation.
	ParamSeed = "lwgcn_seed"
	// initKeyPrefix + variable name (in the variable's scope) holds its
	// initialisation spec (a string, see Init).
	initKeyPrefix = "lwgcn_init#"
)

// Init says how a weight is initialised, as a string stored with the model
// (so Reinitialize can redo it):
//
//	"zeros"
//	"uniform:<b>"                 U(-b, b)
//	"fanin:<meta>:<k>"            U(-b, b), b = 1/sqrt((M+1)·k), M = integer input metadata <meta>
//
// The last form is LabelWiseConv's: its fan-in depends on the number of
// classes present, which can change from split to split.
type Init string

// ZeroInit initialises to 0.
const ZeroInit Init = "zeros"

// Uniform returns the U(-bound, bound) initialisation.
func Uniform(bound float64) Init { return Init("uniform:" + strconv.FormatFloat(bound, 'g', -1, 64)) }

// LinearInit is PyTorch nn.Linear's default for weights and bias:
// U(-1/sqrt(fanIn), 1/sqrt(fanIn)) (kaiming_uniform with a = sqrt(5)).
func LinearInit(fanIn int) Init { return Uniform(1 / math.Sqrt(float64(max(fanIn, 1)))) }

// GlorotInit is PyG's glorot: U(-b, b), b = sqrt(6 / (fanIn + fanOut)).
func GlorotInit(fanIn, fanOut int) Init {
	return Uniform(math.Sqrt(6 / float64(max(fanIn+fanOut, 1))))
}

// FanInFromMeta is U(-b, b) with b = 1/sqrt((meta+1)·k).
func FanInFromMeta(meta string, k int) Init { return Init(fmt.Sprintf("fanin:%s:%d", meta, k)) }

// bound resolves the spec; meta supplies "fanin" metadata.
func (i Init) bound(meta func(string) (int, bool)) (float64, error) {
	s := string(i)
	switch {
	case s == string(ZeroInit):
		return 0, nil
	case strings.HasPrefix(s, "uniform:"):
		return strconv.ParseFloat(strings.TrimPrefix(s, "uniform:"), 64)
	case strings.HasPrefix(s, "fanin:"):
		parts := strings.Split(s, ":")
		if len(parts) != 3 {
			break
		}
		k, err := strconv.Atoi(parts[2])
		if err != nil {
			break
		}
		m, ok := meta(parts[1])
		if !ok {
			return 0, fmt.Errorf("nn: init %q needs input metadata %q", s, parts[1])
		}
		return 1 / math.Sqrt(float64((m+1)*k)), nil
	}
	return 0, fmt.Errorf("nn: invalid init spec %q", s)
}

// Seed returns the initialisation seed of run 0 (0 when unset).
func Seed(store *model.Store) int64 { return model.GetRootParamOr(store, ParamSeed, int64(0)) }

// Param returns the trainable variable name in scope, creating it on first
// use with the given dims, dtype and initialisation; the value depends only
// on the run's seed and the variable's path. It must be called while
// building a graph; meta resolves "fanin" specs (nil if unused). With R
// runs (SetSeed) the variable holds every run's weight, RunsFirst (see
// RunsParam); inside EachRun it returns the run's own.
func Param(scope *model.Scope, g *Graph, name string, dtype dtypes.DType, init Init, meta *Nodes, dims ...int) *Node {
	return RunsParam(scope, g, name, dtype, init, meta, RunsFirst, dims...)
}

// drawUniform draws n U(-b, b) values from a generator seeded by (seed,
// path), in float64 (converted to the variable's dtype later), so float32
// and float64 models start alike.
func drawUniform(seed int64, path string, b float64, n int) []float64 {
	h := fnv.New64a()
	h.Write([]byte(path))
	r := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	vals := make([]float64, n)
	if b != 0 {
		for i := range vals {
			vals[i] = (2*r.Float64() - 1) * b
		}
	}
	return vals
}

// Reinitialize sets the runs' seeds (SetSeed; none given: keep the store's)
// and redraws every variable created by Param (variables of other kinds,
// e.g. optimizer state, are left alone). in supplies "fanin" metadata, per
// run (may be nil when no layer needs it). The compiled graphs stay valid:
// only values change, so the seeds must be as many as the runs the
// variables were created for.
func Reinitialize(store *model.Store, in *Inputs, seeds ...int64) error {
	if len(seeds) > 0 {
		if n := NumRuns(store); len(seeds) != n && hasParams(store) {
			return fmt.Errorf("nn: reinitialising for %d runs weights created for %d", len(seeds), n)
		}
		SetSeed(store, seeds...)
	}
	var lookup func(run int, key string) (int, bool)
	if in != nil {
		lookup = in.metaOf
	}
	for v := range store.IterVariables() {
		specAny, ok := store.GetParam(model.JoinPath(v.Scope(), initKeyPrefix+v.Name()))
		if !ok {
			continue
		}
		spec, ok := specAny.(string)
		if !ok {
			return fmt.Errorf("nn: init spec of %s is %T, not a string", v.Path(), specAny)
		}
		l, dims := variableLayout(store, v)
		paths := StackPaths(store, v)
		if paths == nil {
			paths = []string{v.Path()}
		}
		val, err := paramValue(RunSeeds(store), paths, v.Shape().DType, Init(spec), lookup, l, dims)
		if err != nil {
			return fmt.Errorf("nn: reinitialising %s: %w", v.Path(), err)
		}
		if err := v.SetValue(val); err != nil {
			return fmt.Errorf("nn: reinitialising %s: %w", v.Path(), err)
		}
	}
	return nil
}

// hasParams reports whether the store holds a variable created by Param.
func hasParams(store *model.Store) bool {
	for v := range store.IterVariables() {
		if IsParam(store, v) {
			return true
		}
	}
	return false
}

// IsParam reports whether v was created by Param (a model weight).
func IsParam(s *model.Store, v *model.Variable) bool {
	_, ok := s.GetParam(model.JoinPath(v.Scope(), initKeyPrefix+v.Name()))
	return ok
}
