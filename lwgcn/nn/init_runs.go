package nn

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
)

// InitialValues returns the values Param gives a weight at path (its
// variable path, e.g. "/conv1/weight") with init and dims when the store's
// seed is seed: the same draws, in float64 before the conversion to the
// variable's dtype. Batched training (lwgcn/train/batched) stacks them per
// run so that each run starts exactly as it would alone. init must not be a
// "fanin" spec (which needs graph metadata).
func InitialValues(seed int64, path string, init Init, dims ...int) ([]float64, error) {
	b, err := init.bound(func(string) (int, bool) { return 0, false })
	if err != nil {
		return nil, fmt.Errorf("nn: initial values of %s: %w", path, err)
	}
	t := initValue(seed, path, dtypes.Float64, b, dims)
	defer func() { _ = t.FinalizeAll() }()
	return tensors.CopyFlatData[float64](t)
}
