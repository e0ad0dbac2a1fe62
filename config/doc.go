// Package config reads the study file of DESIGN.md §2.2: a YAML (or, for
// the HTTP API, JSON) document that names a study, its search space, its
// sampler and budget, where it is stored, and the objective to run.
//
// Every problem is reported with the field (and, for YAML, the line) it
// concerns, and all problems of a YAML file are reported together, so a
// person can fix a file in one pass. A JSON document stops at its first
// decoding error (malformed JSON, an unknown field, a value of the wrong
// type, a space with problems); the rest is checked as for YAML.
package config
