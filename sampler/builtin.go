package sampler

// The families still in this package register here until each moves to a
// package of its own.
func init() {
	Register("random", func() Sampler { return Random{} })
	Register("sobol", func() Sampler { return Sobol{} })
	Register("gpbo", func() Sampler { return NewGPBO() })
	Register("onehot-gp", func() Sampler { return NewOneHotGP() })
	Register("tpe", func() Sampler { return NewTPE() })
	Register("kb", func() Sampler { return newKB(false) })
	Register("cl-min", func() Sampler { return newKB(true) })
	Register("ts", func() Sampler { return newTS() })
	Register("nasbowl", func() Sampler { return NewNASBOWL() })
	Register("nasbowl-r", func() Sampler { return &NASBOWL{name: "nasbowl-r"} })
	Register("nasbowl-ucb", func() Sampler { return &NASBOWL{UCB: true, name: "nasbowl-ucb"} })
	Register("nasbowl-vh", func() Sampler { return &NASBOWL{Depths: []int{0}, name: "nasbowl-vh"} })
	Register("nasbowl-edge", func() Sampler { return &NASBOWL{Mutation: true, Kernel: GraphKernelEdge, name: "nasbowl-edge"} })
	Register("nasbowl-gcn", func() Sampler { return &NASBOWL{Mutation: true, Kernel: GraphKernelGCN, name: "nasbowl-gcn"} })
	Register("001-bo-wl", func() Sampler { return NewGraphLCB(GraphKernelWL) })
	Register("001-bo-edge", func() Sampler { return NewGraphLCB(GraphKernelEdge) })
	Register("001-bo-gcn", func() Sampler { return NewGraphLCB(GraphKernelGCN) })
	Register("re", func() Sampler { return Evolution{} })
	Register("ls", func() Sampler { return LocalSearch{} })
	Register("rs", func() Sampler { return RandomUntried{} })
}
