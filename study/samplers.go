package study

// Every sampler family of boa registers itself when imported
// (sampler/all), so that a new study names any of them (Spec.Sampler) and
// a stored study opens whatever boa sampler it names.
import _ "github.com/boaopt/boa/sampler/all"
