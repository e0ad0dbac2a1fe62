package study

// The sampler families outside package sampler register themselves when
// imported, so that a new study names any of them (Spec.Sampler) and a
// stored study opens whatever boa sampler it names.
import _ "github.com/boaopt/boa/sampler/auto"
