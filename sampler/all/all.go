// Package all registers every sampler family of boa (sampler.Register)
// when it is imported, for its side effect:
//
//	import _ "github.com/boaopt/boa/sampler/all"
//
// study imports it, so that a stored study opens whatever boa sampler it
// names, and so do boa run and the server through study. A program that
// wants fewer families imports those it wants instead.
package all

import (
	_ "github.com/boaopt/boa/sampler/auto"
	_ "github.com/boaopt/boa/sampler/bohb"
	_ "github.com/boaopt/boa/sampler/casmopolitan"
	_ "github.com/boaopt/boa/sampler/cocabo"
	_ "github.com/boaopt/boa/sampler/gpbo"
	_ "github.com/boaopt/boa/sampler/mobo"
	_ "github.com/boaopt/boa/sampler/mobster"
	_ "github.com/boaopt/boa/sampler/nasbowl"
	_ "github.com/boaopt/boa/sampler/nsga2"
	_ "github.com/boaopt/boa/sampler/playbook"
	_ "github.com/boaopt/boa/sampler/random"
	_ "github.com/boaopt/boa/sampler/smac"
	_ "github.com/boaopt/boa/sampler/svmcbo"
	_ "github.com/boaopt/boa/sampler/tpe"
)
