//go:build !bench_mostudy

package bench

import (
	"errors"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// newBoaMulti waits for package study's objectives (issue 43).
func newBoaMulti(*space.Space, study.Options, []string) (MultiSession, error) {
	return nil, errors.New("bench: boa's samplers on a multi-objective problem need the studies of several objectives of package study, which this build lacks")
}
