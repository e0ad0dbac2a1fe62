package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestDashboardSession: with a token, the page and its files are served
// to anyone (they hold no data), the API wants the bearer token, and a
// browser gets in by showing the token once (/?token= or the login form):
// the HttpOnly session cookie then reads the API but cannot write it.
func TestDashboardSession(t *testing.T) {
	h := New(storeFor(t), Options{Token: "s3cret"})
	must2 := func(a answer, want int, what string) answer {
		t.Helper()
		if a.status != want {
			t.Fatalf("%s: status %d, want %d: %s", what, a.status, want, a.body)
		}
		return a
	}
	page := must2(call(h, "GET", "/", ""), 200, "GET /")
	if !strings.Contains(string(page.body), "boa dashboard") || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /: %s %.100s", page.header.Get("Content-Type"), page.body)
	}
	must2(call(h, "GET", "/assets/vendor/echarts.min.js", ""), 200, "the chart library")
	must2(call(h, "GET", "/assets/nope.js", ""), 404, "an unknown asset")
	must2(call(h, "GET", "/api/v1/studies", ""), 401, "the API without a token")
	must2(call(h, "GET", "/?token=wrong", ""), 401, "a wrong token")

	in := must2(call(h, "GET", "/?token=s3cret", ""), http.StatusSeeOther, "?token=")
	if in.header.Get("Location") != "/" {
		t.Errorf("redirect to %q, want / (the token off the address bar)", in.header.Get("Location"))
	}
	cookie := in.header.Get("Set-Cookie")
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Strict") || strings.Contains(cookie, "s3cret") {
		t.Errorf("session cookie %q: want HttpOnly, SameSite=Strict and not the token", cookie)
	}
	c := strings.Split(cookie, ";")[0]
	must2(call(h, "GET", "/api/v1/studies", "", "Cookie", c), 200, "GET with the session")
	must2(call(h, "POST", "/api/v1/studies", studyBody("x", 1), "Cookie", c), 401, "POST with the session only")
	must2(call(h, "GET", "/api/v1/studies", "", "Cookie", sessionCookie+"=forged"), 401, "a forged session")

	form := url.Values{"token": {"s3cret"}}.Encode()
	login := must2(call(h, "POST", "/login", form, "Content-Type", "application/x-www-form-urlencoded"), http.StatusSeeOther, "the login form")
	if !strings.Contains(login.header.Get("Set-Cookie"), sessionCookie) {
		t.Error("the login form set no session")
	}
	bad := must2(call(h, "POST", "/login", "token=no", "Content-Type", "application/x-www-form-urlencoded"), http.StatusSeeOther, "a wrong login")
	if bad.header.Get("Set-Cookie") != "" || !strings.Contains(bad.header.Get("Location"), "login=failed") {
		t.Errorf("wrong login: %v", bad.header)
	}
}

// TestDashboardEndpoints: the analysis, table and export endpoints on a
// small study, their bad input answered with a 400 naming it, and a
// read-only server refusing every write.
func TestDashboardEndpoints(t *testing.T) {
	h := New(storeFor(t), Options{})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("d", 6))
	for range 4 {
		id := askOne(t, h, "d")
		must(t, h, 200, "POST", trialPath(id, "tell"), `{"state":"COMPLETE","value":`+itoa(int(id))+`}`)
	}
	id := askOne(t, h, "d")
	must(t, h, 200, "POST", trialPath(id, "tell"), `{"state":"FAILED","reason":"boom"}`)

	a := must(t, h, 200, "GET", "/api/v1/studies/d/analysis?kind=summary,history,importance,parallel,edf,curves,timeline,slice,contour", "")
	for _, k := range []string{"summary", "history", "importance", "parallel", "edf", "curves", "timeline", "slice", "contour"} {
		if a[k] == nil {
			t.Errorf("analysis: no %s", k)
		}
	}
	if pts := a["history"].(map[string]any)["points"].([]any); len(pts) != 5 {
		t.Errorf("history: %d points, want 5", len(pts))
	}
	tab := must(t, h, 200, "GET", "/api/v1/studies/d/table?state=COMPLETE&sort=-value&size=3", "")
	rows := tab["trials"].([]any)
	if tab["matched"].(float64) != 4 || len(rows) != 3 || rows[0].(map[string]any)["value"].(float64) < rows[1].(map[string]any)["value"].(float64) {
		t.Errorf("table: %v", tab)
	}
	if m := must(t, h, 200, "GET", "/api/v1/studies/d/table?q=boom", ""); m["matched"].(float64) != 1 {
		t.Errorf("text filter: %v", m)
	}
	csv := call(h, "GET", "/api/v1/studies/d/export?state=FAILED", "")
	if csv.status != 200 || strings.Count(string(csv.body), "\n") != 2 || !strings.Contains(csv.header.Get("Content-Disposition"), "d.csv") {
		t.Errorf("export: %d %v\n%s", csv.status, csv.header, csv.body)
	}
	for _, q := range []string{
		"analysis?kind=nope", "analysis?kind=slice&param=zz", "analysis?kind=contour&x=x&y=x", "analysis?kind=contour&x=x&y=k&grid=1",
		"table?size=0", "table?page=-1", "table?sort=color", "table?state=DONE", "table?min=abc", "table?where=zz:0:1", "table?where=x:0",
		"export?format=xml",
	} {
		if a := call(h, "GET", "/api/v1/studies/d/"+q, ""); a.status != 400 || a.errMsg(t) == "" {
			t.Errorf("GET %s: %d %s, want a 400 saying why", q, a.status, a.body)
		}
	}
	must(t, h, 404, "GET", "/api/v1/studies/nope/analysis?kind=history", "")

	ro := New(storeFor(t), Options{ReadOnly: true})
	for _, p := range []string{"/api/v1/studies", "/api/v1/studies/d/ask", "/api/v1/trials/1/tell", "/api/v1/trials/1/heartbeat"} {
		if a := call(ro, "POST", p, "{}"); a.status != 403 || !strings.Contains(a.errMsg(t), "read-only") {
			t.Errorf("POST %s on a read-only server: %d %s", p, a.status, a.body)
		}
	}
}
