package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// chromium finds Debian's chromium (or $BOA_CHROMIUM); tests that need
// it skip with a message where it is absent.
func chromium(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("BOA_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Skip("no Chromium: install Debian's chromium (apt-get install -y chromium) or set BOA_CHROMIUM to run the dashboard's browser tests")
	return ""
}

// browser starts a headless Chromium for tb and returns its context. The
// flags keep it off the network, which is closed in CI: without them it
// hangs on or refuses its background fetches.
func browser(tb testing.TB) context.Context {
	tb.Helper()
	exe := chromium(tb)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1400, 2600),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	tb.Cleanup(func() { cancel(); cancelAlloc() })
	// The first action starts the browser.
	if err := chromedp.Do(ctx); err != nil {
		tb.Fatalf("start %s: %v", exe, err)
	}
	return ctx
}

// artefacts is where the browser tests leave screenshots for CI:
// $BOA_ARTEFACTS, or bench-out/dashboard at the repository's root (ignored
// by git).
func artefacts(tb testing.TB) string {
	dir := os.Getenv("BOA_ARTEFACTS")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "bench-out", "dashboard")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// serveDashboard serves the dashboard over store on a real loopback
// socket.
func serveDashboard(tb testing.TB, store storage.Storage, opts server.Options) string {
	srv := httptest.NewServer(server.New(store, opts))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// fixture is what seedStudy wrote, for the tests to count against.
type fixture struct {
	complete, infeasible, pruned, failed, running, withReports int
	failedReason                                               string
}

// seedStudy writes a constrained study to an SQLite file through the
// storage: n trials, of which most COMPLETE (a sixth of them infeasible:
// ram_kb over 100) and some PRUNED, FAILED (one of them stale, with its
// re-run RUNNING) and RUNNING, with learning curves, over four workers.
// Trials go in with raw SQL in one transaction: the storage's own
// AddTrial and FinishTrial, a transaction each, would take minutes for
// the 50,000 of the benchmark.
func seedStudy(tb testing.TB, path, name string, n int) fixture {
	tb.Helper()
	ctx := context.Background()
	store, err := storage.OpenSQLite(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	sp, err := space.New(
		space.Param{Name: "x", Kind: space.Float, Low: -5, High: 10},
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 8},
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly", "linear"}},
	)
	if err != nil {
		tb.Fatal(err)
	}
	maxRAM := 100.0
	st, err := study.Create(ctx, store, study.Spec{Name: name, Direction: study.Minimize, Space: sp, Sampler: "random", Seed: 1, Budget: n,
		Constraints: constraint.Set{"ram_kb": {Max: &maxRAM}}})
	if err != nil {
		tb.Fatal(err)
	}
	id := st.ID()
	store.Close()

	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	ins, err := tx.Prepare(`INSERT INTO trials (study_id, number, params, state, value, metrics, reason, worker, retry_of,
		created_us, started_us, finished_us, heartbeat_us, batch, origin, feasible)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'model', ?) RETURNING id`)
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := tx.Prepare(`INSERT INTO reports (trial_id, step, value) VALUES (?, ?, ?)`)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	kernels := []string{"rbf", "poly", "linear"}
	start := time.Now().Add(-time.Duration(n) * time.Second)
	var fx fixture
	fx.failedReason = "exit code 1: boom"
	for i := range n {
		x, lr, layers, kernel := -5+15*rng.Float64(), math.Pow(10, -4+4*rng.Float64()), 1+rng.IntN(8), kernels[rng.IntN(3)]
		value := (x-2)*(x-2) + math.Abs(math.Log10(lr)+2) + float64(layers)/4
		ram := 40 + 15*float64(layers)
		state, reason, retry := "COMPLETE", "", -1
		var val, feasible any = value, 1
		steps := 5
		switch {
		case i == n-1: // still running, the stale trial's re-run
			state, val, feasible, steps, retry = "RUNNING", nil, nil, 0, n-3
		case i == n-2:
			state, val, feasible, steps = "RUNNING", nil, nil, 0
		case i == n-3:
			state, val, feasible, steps, reason = "FAILED", nil, nil, 0, "stale: no heartbeat since "+start.Format(time.RFC3339)
		case i%9 == 4:
			state, val, feasible, steps, reason = "FAILED", nil, nil, 0, fx.failedReason
		case i%7 == 3:
			state, feasible, steps = "PRUNED", nil, 3
		case ram > 100 && i > 0:
			feasible, reason = 0, fmt.Sprintf("infeasible: ram_kb = %g > 100", ram)
		default:
			ram = min(ram, 100)
		}
		switch state {
		case "COMPLETE":
			fx.complete++
			if feasible == 0 {
				fx.infeasible++
			}
		case "PRUNED":
			fx.pruned++
		case "FAILED":
			fx.failed++
		case "RUNNING":
			fx.running++
		}
		if steps > 0 {
			fx.withReports++
		}
		t0 := start.Add(time.Duration(i) * time.Second)
		var fin any = t0.Add(time.Duration(700+rng.IntN(900)) * time.Millisecond).UnixMicro()
		if state == "RUNNING" {
			fin = nil
		}
		params := fmt.Sprintf(`{"x":%v,"lr":%v,"layers":%d,"kernel":%q}`, x, lr, layers, kernel)
		metrics := fmt.Sprintf(`{"ram_kb":%v}`, ram)
		var tid int64
		if err := ins.QueryRow(id, i, params, state, val, metrics, reason, fmt.Sprintf("worker-%d", i%4), retry,
			t0.UnixMicro(), t0.UnixMicro(), fin, t0.UnixMicro(), i+1, feasible).Scan(&tid); err != nil {
			tb.Fatal(err)
		}
		for s := range steps {
			if _, err := rep.Exec(tid, s, value*(1+1/float64(s+1))); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if _, err := tx.Exec(`UPDATE studies SET next_number = ? WHERE id = ?`, n, id); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return fx
}
