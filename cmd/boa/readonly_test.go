package main

import (
	"crypto/sha256"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage"
)

// TestInspectionOnAReadOnlyFile is issue 35's acceptance: every inspection
// command and boa dashboard work on a database file that is chmod 0444
// (its -wal and -shm gone, as after a clean exit) and leave it byte for
// byte unchanged, with nothing created beside it.
func TestInspectionOnAReadOnlyFile(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(nb201Study, "LOGS", t.TempDir()))
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	path := storage.SQLitePath(url)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	sum := func() [32]byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(b)
	}
	before := sum()
	for _, args := range [][]string{
		{"studies"}, {"trials", "cells"}, {"best", "cells"}, {"export", "cells", "--format", "csv"},
		{"export", "cells", "--format", "json"}, {"motifs", "cells", "--min-graphs", "5"},
		{"report", "cells", "--out", t.TempDir()},
	} {
		out, err := boa(t, append(args, "--storage", url)...)
		if err != nil || out == "" {
			t.Errorf("boa %s on a 0444 file: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	// boa dashboard, a real process: its page and its JSON, and no write.
	cmd := exec.Command(boaproc.Binary(t), "dashboard", "--storage", url, "--addr", "127.0.0.1:0")
	cmd.Env = e2eEnv()
	srv := boaproc.StartServer(t, "boa dashboard", cmd)
	for path, want := range map[string]string{
		"/":               "<title>boa dashboard</title>",
		"/api/v1/studies": `"name":"cells"`,
		"/api/v1/studies/cells/analysis?kind=summary,history,importance,parallel,edf,curves,timeline": `"history"`,
		"/api/v1/studies/cells/table?state=COMPLETE&sort=-value&size=5":                               `"matched"`,
		"/api/v1/studies/cells/motifs?min_trials=5":                                                   `"motifs"`,
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d\n%.300s", path, resp.StatusCode, body)
		}
	}
	resp, err := http.Post(srv.URL+"/api/v1/studies/cells/ask", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("ask on boa dashboard: %d, want 403", resp.StatusCode)
	}
	srv.Stop()

	if sum() != before {
		t.Error("the database file changed")
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), filepath.Base(path)+"-") {
			t.Errorf("%s appeared beside the database", e.Name())
		}
	}
}
