package experiments

import "strconv"

// Batch modes of Spec.Batch and SweepSpec.Batch; a value N > 1 trains up
// to N runs of a cell together where the method is batched (see
// batchedByDefault).
const (
	// BatchAuto batches the methods batchedByDefault names, with the batch
	// size chosen from memory (batched.BatchSizeFor); the others alone.
	BatchAuto = 0
	// BatchAlone trains every run alone (the unbatched path).
	BatchAlone = 1
)

// batchModeName is the batch mode as recorded in sessions.
func batchModeName(n int) string {
	switch n {
	case BatchAuto:
		return "auto"
	case BatchAlone:
		return "alone"
	}
	return strconv.Itoa(n)
}
