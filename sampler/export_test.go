package sampler

// Helpers of the internal reproduction tests, for the external ones.
var (
	ParallelSeeds   = parallelSeeds
	MeanSE          = meanSE
	NewGPyOptOneHot = newGPyOptOneHot
)
