package nn

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
)

// InitialValues returns the values Param gives a weight at path (its
// variable path, e.g. "/conv1/weight") with init and dims when the store's
// seed is seed: the same draws, in float64 before the conversion to the
// variable's dtype. meta resolves "fanin" specs as the run's input metadata
// would (nil when none is needed). Batched training (lwgcn/train/batched)
// stacks them per run so that each run starts exactly as it would alone.
func InitialValues(seed int64, path string, init Init, meta func(string) (int, bool), dims ...int) ([]float64, error) {
	if meta == nil {
		meta = func(string) (int, bool) { return 0, false }
	}
	b, err := init.bound(meta)
	if err != nil {
		return nil, fmt.Errorf("nn: initial values of %s: %w", path, err)
	}
	t := initValue(seed, path, dtypes.Float64, b, dims)
	defer func() { _ = t.FinalizeAll() }()
	return tensors.CopyFlatData[float64](t)
}
