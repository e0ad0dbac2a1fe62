package sampler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// Options are a sampler's settings by name, as a study file's mapping
// form gives them (sampler: {type: gpbo, acquisition: fitbo, samples:
// 200}): every value is the text of a YAML or JSON scalar. They are stored
// with the study, so a study reopened by study.Open gets its sampler back
// with the same settings.
type Options map[string]string

// Configurable is a Sampler that takes Options. Configure is called once,
// on a new instance, before the first suggestion; it refuses an unknown
// key or a value it cannot use with an error that names the key and what
// it accepts.
type Configurable interface {
	Sampler
	Configure(opts Options) error
}

// NewWith returns a new instance of the sampler registered under name,
// configured with opts. A sampler that is not Configurable accepts no
// options.
func NewWith(name string, opts Options) (Sampler, error) {
	s, err := New(name)
	if err != nil || len(opts) == 0 {
		return s, err
	}
	c, ok := s.(Configurable)
	if !ok {
		return nil, fmt.Errorf("sampler %s takes no options (given: %s)", name, strings.Join(opts.Keys(), ", "))
	}
	if err := c.Configure(opts); err != nil {
		return nil, fmt.Errorf("sampler %s: %w", name, err)
	}
	return s, nil
}

// CheckWith is Check for the sampler name configured with opts.
func CheckWith(name string, opts Options, sp *space.Space) error {
	s, err := NewWith(name, opts)
	if err != nil {
		return err
	}
	if c, ok := s.(SpaceChecker); ok && sp != nil {
		return c.CheckSpace(sp)
	}
	return nil
}

// Keys returns the option names, sorted.
func (o Options) Keys() []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
