package server

import (
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
)

// Many goroutines ask and tell at once through one handler (run with
// -race): every trial is handed out once and completes once.
func TestConcurrentWorkers(t *testing.T) {
	const workers, each = 8, 10
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{})
			srv := httptest.NewServer(h)
			defer srv.Close()
			must(t, h, 201, "POST", "/api/v1/studies", studyBody("c", workers*each))
			var wg sync.WaitGroup
			errs := make(chan error, workers*each)
			for w := range workers {
				wg.Go(func() {
					for range each + 1 { // one more ask than needed: it must come back empty
						a := call(h, "POST", "/api/v1/studies/c/ask", fmt.Sprintf(`{"worker":"w%d"}`, w))
						if a.status != 200 {
							errs <- fmt.Errorf("ask: %d %s", a.status, a.body)
							return
						}
						var m map[string]any
						if err := jsonUnmarshal(a.body, &m); err != nil {
							errs <- err
							return
						}
						trials := m["trials"].([]any)
						if len(trials) == 0 {
							return
						}
						id := int64(trials[0].(map[string]any)["id"].(float64))
						if a := call(h, "POST", trialPath(id, "tell"), `{"value":1}`); a.status != 200 {
							errs <- fmt.Errorf("tell %d: %d %s", id, a.status, a.body)
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			all := must(t, h, 200, "GET", "/api/v1/studies/c/trials", "")["trials"].([]any)
			seen := map[string]bool{}
			for _, tr := range all {
				m := tr.(map[string]any)
				key := fmt.Sprint(m["params"])
				if m["state"] != "COMPLETE" || seen[key] {
					t.Errorf("trial %v: %v (duplicate params: %v)", m["number"], m["state"], seen[key])
				}
				seen[key] = true
			}
			if len(all) != workers*each {
				t.Errorf("%d trials, want %d", len(all), workers*each)
			}
		})
	}
}
