package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/boaopt/boa/storage"
)

// A worker's life: take the suggestion lease, add a trial, claim it, report
// progress and finish it; then the study's history is loaded in one call.
func Example() {
	ctx := context.Background()
	s, err := storage.Open(ctx, "memory:") // or "sqlite:boa.db", "postgres://..."
	if err != nil {
		panic(err)
	}
	defer s.Close()

	st, err := s.CreateStudy(ctx, storage.Study{Name: "demo", Direction: "minimize", Sampler: "random",
		Space: json.RawMessage(`{"x":{"type":"float","low":-5,"high":5}}`)})
	if err != nil {
		panic(err)
	}

	lease, err := s.Lock(ctx, st.ID, "worker-1", 30*time.Second)
	if err != nil {
		panic(err)
	}
	// RetryOf -1: an ordinary trial, not the re-run of a crashed one.
	if _, err := s.AddTrial(ctx, storage.Trial{StudyID: st.ID, Params: json.RawMessage(`{"x":1.5}`), X: []float64{0.65}, RetryOf: -1}); err != nil {
		panic(err)
	}
	if err := lease.Unlock(); err != nil {
		panic(err)
	}

	tr, ok, err := s.ClaimTrial(ctx, st.ID, "worker-1")
	if err != nil || !ok {
		panic(err)
	}
	_ = s.Report(ctx, tr.ID, 1, 3.0)
	v := 2.25
	if err := s.FinishTrial(ctx, tr.ID, storage.Finish{State: storage.Complete, Value: &v}); err != nil {
		panic(err)
	}
	fmt.Println(s.FinishTrial(ctx, tr.ID, storage.Finish{State: storage.Failed}))

	trials, _ := s.Trials(ctx, st.ID)
	for _, t := range trials {
		fmt.Println(t.Number, t.State, string(t.Params), *t.Value, t.Reports)
	}
	// Output:
	// storage: finish trial: trial 1 (number 0) is COMPLETE: trial already finished
	// 0 COMPLETE {"x":1.5} 2.25 [{1 3}]
}

// Reading a study without changing its database: no migration, no write,
// not even a -shm file beside a file nobody may write (chmod 0444), as the
// inspection commands and boa dashboard read it.
func ExampleOpenReadOnly() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "boa-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "boa.db")
	w, err := storage.Open(ctx, "sqlite:"+path)
	if err != nil {
		panic(err)
	}
	if _, err := w.CreateStudy(ctx, storage.Study{Name: "demo", Direction: "minimize", Sampler: "random"}); err != nil {
		panic(err)
	}
	w.Close()
	_ = os.Chmod(path, 0o444)

	r, err := storage.OpenReadOnly(ctx, "sqlite:"+path)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	studies, _ := r.ListStudies(ctx)
	fmt.Println(len(studies), studies[0].Name)
	_, err = r.CreateStudy(ctx, storage.Study{Name: "other", Direction: "minimize"})
	fmt.Println(errors.Is(err, storage.ErrReadOnly))
	// Output:
	// 1 demo
	// true
}
