package server

import (
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
)

// A Float parameter at a whole value is answered as 1.0 wherever the API
// hands out a trial's params (enqueue, ask, trials, best), also for a
// trial stored by an older boa, whose JSON has 1: the space says it is a
// float. Python's json reads 1.0 as a float, 1 as an int.
func TestParamsFloatStaysFloat(t *testing.T) {
	store := storage.NewMemory()
	h := New(store, Options{})
	body := `{"name":"fl","sampler":"random","seed":1,"trials":5,
	  "space":{"x":{"type":"float","low":0,"high":1},"steps":{"type":"ordinal","values":[1000,1000000]},"n":{"type":"int","low":1,"high":9}}}`
	must(t, h, 201, "POST", "/api/v1/studies", body)
	const want = `{"n":3,"steps":1000000,"x":1.0}`
	if a := call(h, "POST", "/api/v1/studies/fl/trials", `{"params":{"x":1,"steps":1000000,"n":3}}`); a.status != 201 || !strings.Contains(string(a.body), `"params":`+want) {
		t.Errorf("enqueue: %d %s; want params %s", a.status, a.body, want)
	}
	rec, err := store.GetStudy(t.Context(), "fl")
	if err != nil {
		t.Fatal(err)
	}
	// As an older boa stored it.
	if _, err := store.AddTrial(t.Context(), storage.Trial{StudyID: rec.ID, Params: []byte(`{"x":1,"steps":1000000,"n":3}`), State: storage.Waiting, RetryOf: -1}); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		a := call(h, "POST", "/api/v1/studies/fl/ask", `{"worker":"test"}`)
		if a.status != 200 || !strings.Contains(string(a.body), `"params":`+want) {
			t.Errorf("ask %d: %d %s; want params %s", i, a.status, a.body, want)
		}
	}
	a := call(h, "GET", "/api/v1/studies/fl/trials", "")
	if a.status != 200 || strings.Count(string(a.body), `"params":`+want) != 2 {
		t.Errorf("trials: %d %s; want two trials with params %s", a.status, a.body, want)
	}
}
