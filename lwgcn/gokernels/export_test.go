package gokernels

// Test hooks.
var (
	AfterTransform    = &afterTransform
	FusedGatherSums   = &fusedGatherSums
	MarkedRowGathers  = &markedRowGathers
	RowGatherKernel   = rowGather
	MarkedRowScatters = &markedRowScatters
	RowScatterKernel  = rowScatter
	GatherSumKernel   = gatherSum
	RNGKernel         = rng
	FusedDropoutMasks = &fusedDropoutMasks
	DropoutMaskKernel = dropoutMaskK
	FusedELLProducts  = &fusedELLProducts
	ELLProductKernel  = ellProduct
	FusedAdam         = &fusedAdam
	AdamKernel        = adamK
	TransposeKernel   = transposeK
	TransposesRun     = &transposesRun
)

// Test hooks of the weightgrad kernel.
var (
	WeightGradKernel = weightGradK
	FusedWeightGrads = &fusedWeightGrads
	WeightGradsRun   = &weightGradsRun
	HaveWeightGrad   = haveWeightGrad
)

// Test hooks of the smalldot kernel.
var (
	SmallDotKernel = smallDotK
	FusedSmallDots = &fusedSmallDots
	SmallDotsRun   = &smallDotsRun
	HaveSmallDot   = haveSmallDot
)

// Test hooks of the largedot kernel.
var (
	LargeDotKernel   = largeDotK
	LargeDotsRun     = &largeDotsRun
	LargeDotMinParts = &largeDotMinParts
)
