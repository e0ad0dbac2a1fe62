package api

import (
	"encoding/json"
	"testing"
	"time"
)

// The form of docs/http-api.md's GET .../trials, field for field.
func TestTrialJSON(t *testing.T) {
	v := 0.5
	start := time.Date(2026, 11, 22, 11, 50, 17, 0, time.UTC)
	tr := Trial[json.RawMessage]{
		ID: 1, Number: 0, State: "COMPLETE", Params: json.RawMessage(`{"n":5}`), Value: &v,
		Metrics: map[string]float64{"acc": 0.9}, Reports: []Report{}, Worker: "w",
		Started: Time(start), Finished: Time(time.Time{}), RetryOf: RetryOf(-1), Batch: Batch(1), Origin: "design",
	}
	got, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":1,"number":0,"state":"COMPLETE","params":{"n":5},"value":0.5,"metrics":{"acc":0.9},"reports":[],` +
		`"reason":"","worker":"w","started":"2026-11-22T11:50:17Z","finished":null,"retry_of":null,"batch":1,"origin":"design"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if RetryOf(3) == nil || *RetryOf(3) != 3 || Batch(0) != nil {
		t.Error("RetryOf(3) or Batch(0) is wrong")
	}
}
