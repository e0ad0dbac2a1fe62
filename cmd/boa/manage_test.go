package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// boaIn is boa with stdin.
func boaIn(t *testing.T, stdin io.Reader, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs(args)
	cmd.SetIn(stdin)
	cmd.SetOut(&out)
	cmd.SetErr(io.Discard)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

const mgmtStudy = `name: mgmt
sampler: random
trials: 10
seed: 1
space:
  x: {type: float, low: 0, high: 1}
  n: {type: int, low: 0, high: 3}
  act: {type: categorical, choices: [relu, tanh]}
objective:
  command: [sh, -c, 'echo "BOA_RESULT $0"', "{x}"]
  logs: LOGS
`

// mgmtFile writes mgmtStudy with a budget of trials, and its logs in a
// temporary folder, and returns the file and a storage URL beside it.
func mgmtFile(t *testing.T, trials int) (file, url string) {
	t.Helper()
	doc := strings.Replace(mgmtStudy, "trials: 10", "trials: "+strconv.Itoa(trials), 1)
	return writeStudy(t, strings.Replace(doc, "LOGS", filepath.Join(t.TempDir(), "logs"), 1))
}

// newStudy creates the study of doc in a fresh SQLite file, without
// running it, and returns the file's URL.
func newStudy(t *testing.T, doc string) string {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	cfg, err := config.ParseYAML([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := cfg.Spec()
	if err != nil {
		t.Fatal(err)
	}
	store, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := study.Create(context.Background(), store, spec); err != nil {
		t.Fatal(err)
	}
	return url
}

func TestDelete(t *testing.T) {
	file, url := mgmtFile(t, 3)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "run", strings.Replace(file, "study.yaml", "other.yaml", 1)); err == nil {
		t.Fatal("a missing file ran")
	}

	out, err := boaIn(t, strings.NewReader("n\n"), "delete", "mgmt", "--storage", url)
	if err != nil || !strings.Contains(out, "Delete study mgmt with 3 trials? [y/N] ") || !strings.Contains(out, "not deleted") {
		t.Fatalf("answering n: %q, %v", out, err)
	}
	// stdin that is no terminal (a file here) cannot confirm.
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := boaIn(t, f, "delete", "mgmt", "--storage", url); err == nil || !strings.Contains(err.Error(), "pass --yes") {
		t.Errorf("delete from a non-terminal stdin without --yes: %v, want an error saying to pass --yes", err)
	}
	if out, _ := boa(t, "studies", "--storage", url); !strings.Contains(out, "mgmt") {
		t.Fatalf("the study is gone before anyone said yes:\n%s", out)
	}
	if _, err := boaIn(t, strings.NewReader("y\n"), "delete", "mgnt", "--storage", url, "--yes"); err == nil || !strings.Contains(err.Error(), "did you mean mgmt?") {
		t.Errorf("delete of a typo: %v, want not found with a hint", err)
	}

	out, err = boaIn(t, strings.NewReader("y\n"), "delete", "mgmt", "--storage", url)
	if err != nil || !strings.Contains(out, "deleted study mgmt with 3 trials") {
		t.Fatalf("answering y: %q, %v", out, err)
	}
	if _, err := boa(t, "trials", "mgmt", "--storage", url); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("trials of the deleted study: %v", err)
	}
	// The name is free again: the same file runs afresh without --resume.
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatalf("running the study again after the delete: %v", err)
	}
	out, err = boaIn(t, f, "delete", "mgmt", "--storage", url, "--yes")
	if err != nil || !strings.Contains(out, "deleted study mgmt with 3 trials") {
		t.Fatalf("delete --yes: %q, %v", out, err)
	}
	if out, err := boa(t, "studies", "--storage", url, "--json"); err != nil || strings.TrimSpace(out) != `{
  "studies": []
}` {
		t.Errorf("studies --json of an emptied storage: %q, %v", out, err)
	}
}

func TestEnqueue(t *testing.T) {
	url := newStudy(t, mgmtStudy)
	out, err := boa(t, "enqueue", "mgmt", "--storage", url, "--param", "x=0.5", "-p", "n=2", "--param", "act=tanh")
	if err != nil || out != "queued trial 0: x=0.5 n=2 act=tanh\n" {
		t.Fatalf("enqueue --param: %q, %v", out, err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--param", "x=0.5", "--param", "n=2", "--param", "act=gelu"}, []string{"space.act", `"gelu"`, "one of relu, tanh"}},
		{[]string{"--param", "x=0.5", "--param", "n=two", "--param", "act=relu"}, []string{"space.n", "an integer in [0, 3]", `"two"`}},
		{[]string{"--param", "x=2", "--param", "n=1", "--param", "act=relu"}, []string{"space.x", "outside [0, 1]"}},
		{[]string{"--param", "z=1"}, []string{"space.z: unknown parameter; the space has x, n, act"}},
		{[]string{"--param", "x=0.5"}, []string{"space.n", "missing"}},
		{[]string{"--param", "x"}, []string{`--param "x": want NAME=VALUE; the parameters are x, n, act`}},
		{[]string{"--param", "x=1", "--param", "x=0"}, []string{"--param x: given twice"}},
		{nil, []string{"--param NAME=VALUE", "--file FILE"}},
	} {
		_, err := boa(t, append([]string{"enqueue", "mgmt", "--storage", url}, c.args...)...)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("enqueue %q: %v, want an error mentioning %q", c.args, err, w)
			}
		}
	}

	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	yml := write("points.yaml", "- {x: 0.25, n: 0, act: relu}\n- {x: 1, n: 3, act: tanh}\n")
	out, err = boa(t, "enqueue", "mgmt", "--storage", url, "--file", yml)
	if err != nil || out != "queued trial 1: x=0.25 n=0 act=relu\nqueued trial 2: x=1 n=3 act=tanh\n" {
		t.Fatalf("enqueue --file YAML: %q, %v", out, err)
	}
	js := write("points.json", `[{"x": 0.75, "n": 1, "act": "relu"}]`)
	if out, err := boa(t, "enqueue", "mgmt", "--storage", url, "-f", js); err != nil || out != "queued trial 3: x=0.75 n=1 act=relu\n" {
		t.Fatalf("enqueue --file JSON: %q, %v", out, err)
	}
	// One bad configuration, and none is queued.
	bad := write("bad.yaml", "- {x: 0.5, n: 1, act: relu}\n- {x: 0.5, n: 9, act: relu}\n")
	if _, err := boa(t, "enqueue", "mgmt", "--storage", url, "--file", bad); err == nil || !strings.Contains(err.Error(), "configuration 2: space.n") {
		t.Errorf("a bad second configuration: %v", err)
	}
	notList := write("one.yaml", "x: 0.5\n")
	if _, err := boa(t, "enqueue", "mgmt", "--storage", url, "--file", notList); err == nil || !strings.Contains(err.Error(), "line 1: want a list of configurations") {
		t.Errorf("a file that is no list: %v", err)
	}

	out, err = boa(t, "trials", "mgmt", "--storage", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []struct {
		Number int            `json:"number"`
		State  string         `json:"state"`
		Origin string         `json:"origin"`
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatalf("trials --json: %v\n%s", err, out)
	}
	if len(trials) != 4 || trials[2].State != "WAITING" || trials[2].Origin != "user" || trials[2].Params["act"] != "tanh" || trials[2].Params["n"] != 3.0 {
		t.Errorf("trials --json after 4 enqueued: %+v", trials)
	}

	// A study whose budget is used up takes no more.
	full := newStudy(t, strings.Replace(mgmtStudy, "trials: 10", "trials: 1", 1))
	boa(t, "enqueue", "mgmt", "--storage", full, "--file", js)
	if _, err := boa(t, "enqueue", "mgmt", "--storage", full, "--file", yml); err == nil || !strings.Contains(err.Error(), "used its budget of 1 trials: 0 of the 2 configurations were queued") {
		t.Errorf("enqueue past the budget: %v", err)
	}
}

func TestStudiesAndTrialsJSON(t *testing.T) {
	file, url := mgmtFile(t, 3)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	out, err := boa(t, "studies", "--storage", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Studies []struct {
			Name      string         `json:"name"`
			Sampler   string         `json:"sampler"`
			Trials    int            `json:"trials"`
			States    map[string]int `json:"states"`
			BestValue *float64       `json:"best_value"`
		} `json:"studies"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("studies --json: %v\n%s", err, out)
	}
	if s := list.Studies; len(s) != 1 || s[0].Name != "mgmt" || s[0].Sampler != "random" || s[0].Trials != 3 || s[0].States["COMPLETE"] != 3 || s[0].BestValue == nil {
		t.Errorf("studies --json: %+v", list)
	}
	trials, err := boa(t, "trials", "mgmt", "--storage", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	exported, err := boa(t, "export", "mgmt", "--storage", url, "--format", "json")
	if err != nil || trials != exported {
		t.Errorf("trials --json differs from export --format json (%v):\n%s\n%s", err, trials, exported)
	}
	table, err := boa(t, "trials", "mgmt", "--storage", url)
	if lines := strings.Split(table, "\n"); err != nil || !strings.Contains(lines[0], "DURATION") {
		t.Errorf("trials table without a DURATION column (%v):\n%s", err, table)
	}
}

func TestDurationText(t *testing.T) {
	at := time.Unix(1000, 0)
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{1234567 * time.Nanosecond, "1ms"}, {850 * time.Millisecond, "850ms"}, {12345 * time.Millisecond, "12.3s"},
		{4*time.Minute + 10*time.Second, "4m10s"}, {4 * time.Minute, "4m"}, {2*time.Hour + 3*time.Minute + 20*time.Second, "2h3m"},
		{2 * time.Hour, "2h"}, {26*time.Hour + 10*time.Minute, "26h10m"},
	} {
		if got := durationText(study.Trial{Started: at, Finished: at.Add(c.d)}); got != c.want {
			t.Errorf("durationText(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := durationText(study.Trial{Started: at}); got != "-" {
		t.Errorf("a running trial's duration: %q, want -", got)
	}
}

func TestVersion(t *testing.T) {
	out, err := boa(t, "--version")
	if err != nil || !strings.HasPrefix(out, "boa version ") || !strings.Contains(out, "go1.") {
		t.Errorf("boa --version: %q, %v", out, err)
	}
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}
	if got := versionOf(info); got != "v1.2.3, commit abc123 (modified), go1.26.0" {
		t.Errorf("versionOf = %q", got)
	}
	if got := versionOf(&debug.BuildInfo{GoVersion: "go1.26.0"}); got != "(devel), go1.26.0" {
		t.Errorf("versionOf without a version or commit = %q", got)
	}
}

// TestVersionOfTheBinary: the built binary prints what the go command
// stamped into it (go version -m reads the same build information): its
// module version and, when it was built in a clone with VCS stamping on
// (not with GOFLAGS=-buildvcs=false), the commit.
func TestVersionOfTheBinary(t *testing.T) {
	bin := boaproc.Binary(t)
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	meta, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Skipf("go version -m: %v", err)
	}
	for _, line := range strings.Split(string(meta), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "mod" && !strings.Contains(string(out), "version "+f[2]):
			t.Errorf("boa --version = %q, want the module version %s", out, f[2])
		case len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision=") && !strings.Contains(string(out), "commit "+strings.TrimPrefix(f[1], "vcs.revision=")):
			t.Errorf("boa --version = %q, want the commit of %s", out, f[1])
		}
	}
}
