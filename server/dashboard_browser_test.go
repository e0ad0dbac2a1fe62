package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
)

// chartCounts reads, from ECharts' own state in the page, how many points
// each chart draws.
const chartCounts = `(() => {
  const o = (k) => boa.charts[k].getOption();
  const len = (k, i) => ((o(k).series[i] || {}).data || []).length;
  const byName = (k, name) => (o(k).series.find((s) => s.name === name) || {data: []}).data.length;
  return {
    historyComplete: byName("history", "complete"), historyInfeasible: byName("history", "infeasible"),
    historyPruned: byName("history", "pruned"), historyBest: o("history").series[3].data.length,
    importance: len("importance", 0), edf: len("edf", 0), parallel: len("parallel", 0),
    slice: len("slice", 0) + len("slice", 1), contourCells: len("contour", 0), contourPoints: len("contour", 1),
    curves: o("curves").series.length,
    prunedCurves: o("curves").series.filter((s) => s.lineStyle.type === "dashed").length,
    timeline: len("timeline", 0),
    rows: document.querySelectorAll("#trials tbody tr[data-n]").length,
  };
})()`

// TestDashboardInBrowser opens the dashboard in headless Chromium on a
// real SQLite study with COMPLETE (feasible and not), PRUNED, FAILED
// (one stale, re-run) and RUNNING trials, and checks that every chart
// draws the right number of points, that the trial table filters, and
// that the studies list shows the study; it leaves screenshots in
// bench-out/dashboard (or $BOA_ARTEFACTS) for CI.
func TestDashboardInBrowser(t *testing.T) {
	ctx := browser(t)
	path := filepath.Join(t.TempDir(), "boa.db")
	const n = 60
	fx := seedStudy(t, path, "browser", n)
	store, err := storage.OpenReadOnly(t.Context(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	url := serveDashboard(t, store, server.Options{ReadOnly: true})
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	const poll = `window.boa && boa.page === "studies" && boa.rendered !== null`
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/"), chromedp.Poll[chromedp.Void](poll, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatal(err)
	}
	list, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#studies tbody").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, "browser") || !strings.Contains(list, "running") {
		t.Errorf("studies list: %q", list)
	}

	if err := chromedp.Do(ctx,
		chromedp.Navigate(url+"/#/study/browser"),
		chromedp.Poll[chromedp.Void](`window.boa && boa.page === "study" && boa.rendered !== null && (boa.charts.slice?.getOption()?.series || []).length > 0 && (boa.charts.contour?.getOption()?.series || []).length > 1`, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll("#trials tbody tr[data-n]").length > 0`, chromedp.WithPollingTimeout(10*time.Second)),
	); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int](chartCounts))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	writeShot(t, "study.png", shot)
	finished := fx.complete + fx.pruned + fx.failed
	for name, want := range map[string]int{
		"historyComplete":   fx.complete - fx.infeasible,
		"historyInfeasible": fx.infeasible,
		"historyPruned":     fx.pruned,
		"historyBest":       finished, // trial 0 is feasible: a best from the first point on
		"importance":        4,
		"edf":               fx.complete,
		"parallel":          fx.complete,
		"slice":             fx.complete,
		"contourCells":      20 * 20, // x × lr, both continuous: the default grid
		"contourPoints":     fx.complete,
		"curves":            fx.withReports,
		"prunedCurves":      fx.pruned,
		"timeline":          n,  // every trial started
		"rows":              50, // the first page
	} {
		if got[name] != want {
			t.Errorf("%s: %d points drawn, want %d", name, got[name], want)
		}
	}
	t.Logf("fixture %+v; drawn %v", fx, got)

	// The table filters on the server: by state, by feasibility, by text.
	for _, tc := range []struct {
		set  string // JS that sets the filter form
		want int
	}{
		{`f.state.value = "FAILED"`, fx.failed},
		{`f.state.value = ""; f.feasible.value = "false"`, fx.infeasible},
		{`f.feasible.value = ""; f.q.value = "boom"`, fx.failed - 1}, // not the stale one
		{`f.q.value = ""; f.wparam.value = "layers"; f.wlo.value = "8"; f.whi.value = ""`, -1},
	} {
		err := chromedp.Do(ctx,
			chromedp.Evaluate[chromedp.Void](`(() => { window.__loads = boa.table.loads; const f = document.querySelector("#filters"); `+tc.set+`; f.requestSubmit(); })()`),
			chromedp.Poll[chromedp.Void](`boa.table.loads > window.__loads`, chromedp.WithPollingTimeout(10*time.Second)),
		)
		if err != nil {
			t.Fatalf("filter %s: %v", tc.set, err)
		}
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#trials tbody tr[data-n]").length`))
		if err != nil {
			t.Fatal(err)
		}
		info, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#pageinfo").textContent`))
		if tc.want >= 0 && rows != tc.want {
			t.Errorf("filter %s: %d rows (%s), want %d", tc.set, rows, info, tc.want)
		}
		if tc.want < 0 && (rows == 0 || rows >= n) {
			t.Errorf("filter %s: %d rows (%s), want some but not all", tc.set, rows, info)
		}
	}
	if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		writeShot(t, "study-filtered.png", shot)
	}

	// Live: a trial another process finishes shows up without a reload.
	w, err := storage.OpenSQLite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rec, err := w.GetStudy(t.Context(), "browser")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := w.AddTrial(t.Context(), storage.Trial{StudyID: rec.ID, Params: []byte(`{"x":2,"lr":0.01,"layers":1,"kernel":"rbf"}`), State: storage.Running, RetryOf: -1})
	if err != nil {
		t.Fatal(err)
	}
	v := -1.0 // a new best
	if err := w.FinishTrial(t.Context(), tr.ID, storage.Finish{State: storage.Complete, Value: &v}); err != nil {
		t.Fatal(err)
	}
	want := fx.complete - fx.infeasible + 1
	err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`boa.charts.history.getOption().series.find((s) => s.name === "complete").data.length === `+strconv.Itoa(want),
		chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Errorf("the new trial did not show in the history within 30 s: %v", err)
	}
}

func writeShot(t testing.TB, name string, b []byte) {
	p := filepath.Join(artefacts(t), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Error(err)
		return
	}
	t.Logf("screenshot: %s", p)
}

// TestDashboardLoginInBrowser: a server with a token shows the login
// form; a wrong token is refused with the form's message, and the right
// one opens the studies list through the session cookie, never showing
// the token in the page's address.
func TestDashboardLoginInBrowser(t *testing.T) {
	ctx := browser(t)
	path := filepath.Join(t.TempDir(), "boa.db")
	seedStudy(t, path, "guarded", 12)
	store, err := storage.OpenReadOnly(t.Context(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	url := serveDashboard(t, store, server.Options{ReadOnly: true, Token: "s3cret"})
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	login := func(token string) {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Navigate(url+"/"),
			chromedp.WaitVisible(chromedp.CSS(`form[action="/login"] input[name="token"]`)),
			chromedp.SendKeys(chromedp.CSS(`input[name="token"]`), token),
			chromedp.Submit(chromedp.CSS(`form[action="/login"]`)),
		)
		if err != nil {
			t.Fatalf("login with %q: %v", token, err)
		}
	}
	login("wrong")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("login-error"))); err != nil {
		t.Fatalf("a wrong token: no error shown: %v", err)
	}
	login("s3cret")
	const listed = `window.boa && boa.page === "studies" && document.querySelector("#studies tbody").textContent.includes("guarded")`
	// The form's POST redirects to the page: wait for the new document
	// before evaluating in it.
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#studies tbody`)), chromedp.Poll[chromedp.Void](listed, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the right token: the studies list did not open: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil || strings.Contains(loc, "s3cret") {
		t.Errorf("address after login %q, %v: the token must not stay in it", loc, err)
	}
	if shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		writeShot(t, "login.png", shot)
	}
}
