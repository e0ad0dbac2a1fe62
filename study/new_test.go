package study

import (
	"errors"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/storage"
)

// New is the one way from Go: a sampler value or a registered one by
// name (sampler.New), in memory or in a storage.
func TestNewSamplerValueOrName(t *testing.T) {
	store := storage.NewMemory()
	byValue, err := New(testSpace(t), Options{Name: "v", Sampler: random.Uniform{}, Storage: store, Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := byValue.Ask(bg); err != nil {
		t.Fatal(err)
	}
	tpe, err := sampler.New("tpe")
	if err != nil {
		t.Fatal(err)
	}
	byName, err := New(testSpace(t), Options{Name: "n", Sampler: tpe, Storage: store})
	if err != nil || byName.Sampler().Name() != "tpe" {
		t.Fatalf("New(sampler.New(\"tpe\")) = %v, %v", byName, err)
	}
	// Stored: Open finds both, with the samplers named.
	for name, want := range map[string]string{"v": random.Uniform{}.Name(), "n": "tpe"} {
		st, err := Open(bg, store, name)
		if err != nil || st.Sampler().Name() != want {
			t.Errorf("Open(%q) = %v, %v; want sampler %s", name, st, err, want)
		}
	}
	if ts := trials(t, byValue); len(ts) != 1 || byValue.Budget() != 4 {
		t.Errorf("stored study: %d trials, budget %d", len(ts), byValue.Budget())
	}
	if _, err := New(testSpace(t), Options{Name: "v", Storage: store}); !errors.Is(err, storage.ErrExists) {
		t.Errorf("New with a taken name: %v, want ErrExists", err)
	}
	if mem, err := New(testSpace(t), Options{Name: "v"}); err != nil || mem.Storage() == store {
		t.Errorf("New without a storage: %v, %v; want a memory study of its own", mem, err)
	}
	if _, err := sampler.New("gpboo"); err == nil {
		t.Error(`sampler.New("gpboo") did not fail`)
	}
}
