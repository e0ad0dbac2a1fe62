// Package auto is the default sampler: it chooses gpbo, cocabo or
// casmopolitan by the study's space and budget (Auto.Choice), and gpbo,
// which models the constraints, for a constrained study (Auto.ChoiceFor);
// the rule and the measurements behind it are in docs/samplers.md. It
// hands every suggestion to the one it chose (sampler.Chooser).
package auto
