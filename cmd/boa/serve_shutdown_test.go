package main

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage"
)

// TestServeShutdownCancelsWaitingAsks: boa serve shutting down while an
// ask waits for the suggestion lease of a killed replica cancels the ask
// after its grace (the ask answers 503, its client retries elsewhere) and
// exits cleanly; it waited the 30 s shutdown timeout and failed with
// "context deadline exceeded".
func TestServeShutdownCancelsWaitingAsks(t *testing.T) {
	defer func(d time.Duration) { shutdownGrace = d }(shutdownGrace)
	shutdownGrace = 200 * time.Millisecond
	db := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	stderr := &boaproc.Buffer{}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, serveFlags{storage: db, addr: "127.0.0.1:0", lease: time.Minute}, stderr) }()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("boa serve did not start:\n%s", stderr)
		}
	}
	createStudy(t, url, "held", 5)

	// A replica killed while it held the study's suggestion lease.
	store, err := storage.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, err := store.GetStudy(context.Background(), "held")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Lock(context.Background(), st.ID, "killed replica", time.Minute); err != nil {
		t.Fatal(err)
	}
	asked := make(chan int, 1)
	go func() {
		resp, err := http.Post(url+"/api/v1/studies/held/ask", "application/json", strings.NewReader(`{}`))
		if err != nil {
			asked <- 0
			return
		}
		resp.Body.Close()
		asked <- resp.StatusCode
	}()
	time.Sleep(300 * time.Millisecond) // the ask waits for the lease
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("boa serve: %v\n%s", err, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("boa serve did not shut down within 10 s:\n%s", stderr)
	}
	if code := <-asked; code != http.StatusServiceUnavailable {
		t.Errorf("the waiting ask answered %d, want 503", code)
	}
}
