package nn

// Internals the external tests (package nn_test) check directly.
var (
	ClosureUniform     = closureUniform
	IdentityMatrix     = identity
	PairwiseLogSoftmax = pairwiseLogSoftmax
	SuperGATBCE        = superGATBCE
	SuperGATNegatives  = superGATNegatives
)
