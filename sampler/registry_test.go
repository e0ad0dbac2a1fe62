package sampler

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

type named string

func (n named) Name() string { return string(n) }
func (named) Suggest(context.Context, *History, *rand.Rand) ([]float64, error) {
	return nil, nil
}

// panics reports whether f panics.
func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

func TestRegister(t *testing.T) {
	Register("Test-Registry", func() Sampler { return named("test-registry") })
	RegisterAlias("test-registry-old", "test-registry")
	for _, name := range []string{"test-registry", "TEST-REGISTRY", "test-registry-old"} {
		if s, err := New(name); err != nil || s.Name() != "test-registry" {
			t.Errorf("New(%q) = %v, %v", name, s, err)
		}
	}
	names := Names()
	if !slices.Contains(names, "test-registry") || slices.Contains(names, "test-registry-old") {
		t.Errorf("Names() = %v; want test-registry without its alias", names)
	}
	for what, f := range map[string]func(){
		"a taken name":         func() { Register("test-registry", func() Sampler { return named("x") }) },
		"an alias's name":      func() { Register("test-registry-old", func() Sampler { return named("x") }) },
		"no name":              func() { Register("", func() Sampler { return named("x") }) },
		"no factory":           func() { Register("test-registry-nil", nil) },
		"a taken alias":        func() { RegisterAlias("test-registry", "random") },
		"an alias taken twice": func() { RegisterAlias("test-registry-old", "random") },
	} {
		if !panics(f) {
			t.Errorf("registering %s did not panic", what)
		}
	}
	if _, err := New("test-registry-missing"); err == nil || !strings.Contains(err.Error(), "test-registry") {
		t.Errorf("New of an unknown name: %v; want an error that lists the known names", err)
	}
}
