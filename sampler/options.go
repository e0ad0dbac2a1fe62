package sampler

import (
	"fmt"
	"slices"
	"strconv"
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

// Option is one setting of a Configurable sampler of type T: what it
// accepts, for the error that refuses a bad value, and how it sets it.
type Option[T any] struct {
	Help string
	Set  func(s *T, v string) error
}

// Configure sets opts on s by table, each name compared in lower case
// with '-' read as '_' (and renamed by alias, for a spelling the table
// does not list), each value trimmed; an unknown name is refused with the
// names the table has, a bad value with the option's Help.
func Configure[T any](s *T, opts Options, table map[string]Option[T], alias map[string]string) error {
	for _, k := range opts.Keys() {
		name := strings.ReplaceAll(strings.ToLower(k), "-", "_")
		if a, ok := alias[name]; ok {
			name = a
		}
		o, ok := table[name]
		if !ok {
			known := make([]string, 0, len(table))
			for n := range table {
				known = append(known, n)
			}
			slices.Sort(known)
			return fmt.Errorf("unknown option %q (the options are %s)", k, strings.Join(known, ", "))
		}
		if err := o.Set(s, strings.TrimSpace(opts[k])); err != nil {
			return fmt.Errorf("option %s: %w; want %s", k, err, o.Help)
		}
	}
	return nil
}

// BoolOption sets the field of a T that field returns from "true" or "false".
func BoolOption[T any](field func(*T) *bool) func(*T, string) error {
	return func(s *T, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%q is not true or false", v)
		}
		*field(s) = b
		return nil
	}
}

// IntOption sets the field of a T that field returns from an integer of
// at least least.
func IntOption[T any](field func(*T) *int, least int) func(*T, string) error {
	return func(s *T, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return fmt.Errorf("%q is not an integer ≥ %d", v, least)
		}
		*field(s) = n
		return nil
	}
}
