package sampler

// The families still in this package register here until each moves to a
// package of its own.
func init() {
	Register("random", func() Sampler { return Random{} })
	Register("sobol", func() Sampler { return Sobol{} })
	Register("gpbo", func() Sampler { return NewGPBO() })
	Register("onehot-gp", func() Sampler { return NewOneHotGP() })
	Register("kb", func() Sampler { return newKB(false) })
	Register("cl-min", func() Sampler { return newKB(true) })
	Register("ts", func() Sampler { return newTS() })
	Register("rs", func() Sampler { return RandomUntried{} })
}
