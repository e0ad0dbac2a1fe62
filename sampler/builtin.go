package sampler

// The families still in this package register here until each moves to a
// package of its own.
func init() {
	Register("random", func() Sampler { return Random{} })
	Register("sobol", func() Sampler { return Sobol{} })
	Register("rs", func() Sampler { return RandomUntried{} })
}
