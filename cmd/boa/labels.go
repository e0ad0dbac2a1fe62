package main

import (
	"strings"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/auto"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

// modelLabel is samplerLabel with the study's transform and pruner, when
// it has them.
func modelLabel(st *study.Study) string {
	label := samplerLabel(st)
	if st.Transform() != transform.None {
		label += ", transform " + st.Transform().String()
	}
	if p := st.PrunerSpec(); !p.IsNone() {
		label += ", pruner " + p.String()
	}
	return label + inputNoiseLabel(st)
}

// inputNoiseLabel says how the study's sampler treats the input noise its
// space declares (space.Param.InputNoise), "" when it declares none.
func inputNoiseLabel(st *study.Study) string {
	var noisy []string
	for _, p := range st.Space().Params() {
		if p.InputNoise > 0 {
			noisy = append(noisy, p.Name)
		}
	}
	if len(noisy) == 0 {
		return ""
	}
	s := st.Sampler()
	if c, ok := s.(sampler.Chooser); ok {
		s = c.Chosen(&sampler.History{Space: st.Space(), Budget: st.Budget(), Constraints: st.Constraints().Names()})
	}
	if m, ok := s.(interface{ InputNoiseModel() string }); ok && m.InputNoiseModel() != "" {
		return ", " + m.InputNoiseModel() + " for the input noise of " + strings.Join(noisy, ", ")
	}
	return ", input noise of " + strings.Join(noisy, ", ") + " not modelled (gpbo models it)"
}

// samplerLabel names the study's sampler, and for auto what it chose.
func samplerLabel(st *study.Study) string { return withChoice(st.Sampler().Name(), autoChoice(st)) }

// withChoice is "auto (cocabo)": a sampler's name and what it chose, if
// anything.
func withChoice(name, choice string) string {
	if choice == "" {
		return name
	}
	return name + " (" + choice + ")"
}

// autoChoice is the sampler auto chose for the study, "" when its sampler
// is not auto.
func autoChoice(st *study.Study) string {
	if a, ok := st.Sampler().(*auto.Auto); ok {
		return a.ChoiceFor(&sampler.History{Space: st.Space(), Budget: st.Budget(), Constraints: st.Constraints().Names(), Objectives: len(st.Objectives())})
	}
	return ""
}
