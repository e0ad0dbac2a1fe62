package study

import (
	"strings"
	"testing"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/transform"
)

func TestCheckResume(t *testing.T) {
	spec := Spec{Name: "r", Space: testSpace(t), Sampler: "random", Budget: 10, Pruner: pruner.Spec{Type: "median"}}
	st, err := Create(bg, storage.NewMemory(), spec)
	if err != nil {
		t.Fatal(err)
	}
	same := spec
	same.Sampler, same.Seed, same.Budget = "tpe", 7, 20 // may change on resume
	if err := st.CheckResume(same, "memory:"); err != nil {
		t.Errorf("the same spec with another sampler and seed: %v", err)
	}
	other, _ := space.New(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	for _, c := range []struct {
		change func(*Spec)
		want   string
	}{
		{func(s *Spec) { s.Space = other }, `study "r" in memory: has another search space than the file`},
		{func(s *Spec) { s.Direction = Maximize }, `study "r" in memory: is minimize, the file says maximize`},
		{func(s *Spec) { s.Transform = transform.Log }, "has transform none, the file says log"},
		{func(s *Spec) { s.Pruner = pruner.Spec{} }, "has pruner median, the file says"},
		{func(s *Spec) { s.Constraints = limits() }, "has constraints none, the file says acc >= 0.8, ram_kb <= 256"},
	} {
		s := spec
		c.change(&s)
		if err := st.CheckResume(s, "memory:"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckResume = %v, want an error with %q", err, c.want)
		}
	}
}
