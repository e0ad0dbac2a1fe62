package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/export"
)

// paramsSpace is a space with a Float whose upper bound is whole, an
// integer ordinal and an Int, as JSON and YAML.
const paramsSpace = `{"frac":{"type":"float","low":0.5,"high":1.0},"steps":{"type":"ordinal","values":[1000,1000000]},"depth":{"type":"int","low":1,"high":9}}`

// recordArgs is a command that writes its arguments and BOA_PARAMS to
// DIR/args and DIR/params.
func recordArgs(dir string) []string {
	return []string{"sh", "-c", `printf '%s\n' "$@" > ` + dir + `/args; printf '%s' "$BOA_PARAMS" > ` + dir + `/params; echo BOA_RESULT 1`,
		"sh", "--frac={frac}", "{steps}", "{depth}"}
}

// A Float at a whole value (its bound 1.0) reaches the command as 1.0 in
// its arguments and BOA_PARAMS, an integer ordinal and an Int as digits,
// and boa run and boa worker pass the same trial the same arguments and
// BOA_PARAMS. Each runs a trial enqueued at frac = 1.0 over the HTTP API.
func TestE2EFloatStaysFloat(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "boa.db")
	s := startServe(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.New(s.url, "")
	at := map[string]any{"frac": 1.0, "steps": 1000000, "depth": 3}
	for _, name := range []string{"by-run", "by-worker"} {
		body := fmt.Sprintf(`{"name":%q,"sampler":"random","seed":1,"trials":1,"space":%s}`, name, paramsSpace)
		if _, err := c.CreateStudy(ctx, []byte(body)); err != nil {
			t.Fatal(err)
		}
		tr, err := c.Enqueue(ctx, name, at)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Params["frac"]; fmt.Sprint(got) != "1.0" {
			t.Errorf("enqueue answered frac = %#v, want the number 1.0", got)
		}
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	// boa run --resume runs the enqueued trial of by-run.
	quoted := make([]string, 0, 8)
	for _, a := range recordArgs(filepath.Join(dir, "by-run")) {
		quoted = append(quoted, fmt.Sprintf("%q", a))
	}
	file := filepath.Join(dir, "study.yaml")
	yaml := fmt.Sprintf("name: by-run\nsampler: random\nseed: 1\ntrials: 1\nspace: %s\nobjective:\n  command: [%s]\n  logs: %s\n",
		paramsSpace, strings.Join(quoted, ", "), filepath.Join(dir, "logs"))
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := boa(t, "run", file, "--storage", url, "--resume"); err != nil {
		t.Fatalf("boa run: %v\n%s", err, out)
	}
	// boa worker runs the enqueued trial of by-worker.
	w := startWorker(t, s.url, "by-worker", append([]string{"--"}, recordArgs(filepath.Join(dir, "by-worker"))...)...)
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}

	want := map[string]string{"args": "--frac=1.0\n1000000\n3\n", "params": `{"depth":3,"frac":1.0,"steps":1000000}`}
	for _, name := range []string{"by-run", "by-worker"} {
		for file, w := range want {
			got, err := os.ReadFile(filepath.Join(dir, name, file))
			if err != nil || string(got) != w {
				t.Errorf("%s: %s = %q, %v; want %q", name, file, got, err, w)
			}
		}
		if tr := studyTrials(t, s.url, name); len(tr) != 1 || tr[0].State != "COMPLETE" || fmt.Sprint(tr[0].Params["frac"]) != "1.0" {
			t.Errorf("%s: trials %+v; want one COMPLETE trial at frac 1.0", name, tr)
		}
	}
}

// The README's form: boa run passes the conditional degree with a group
// [--degree, "{degree?}"], which is left out where the kernel is not poly;
// the command's result is its number of arguments.
func TestRunOptionalGroup(t *testing.T) {
	file, url := writeStudy(t, `name: svm
sampler: random
trials: 8
seed: 2
space:
  kernel: {type: categorical, choices: [rbf, poly]}
  degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}
objective:
  command: [sh, -c, 'echo BOA_RESULT $#', sh, --kernel, "{kernel}", [--degree, "{degree?}"]]
  logs: `+filepath.Join(t.TempDir(), "logs")+`
`)
	if out, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatalf("boa run: %v\n%s", err, out)
	}
	out, err := boa(t, "export", "svm", "--storage", url, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []export.Trial
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatal(err)
	}
	kernels := map[string]bool{}
	for _, tr := range trials {
		want := 2.0
		if tr.Params["kernel"] == "poly" {
			want = 4
		}
		if tr.State != "COMPLETE" || tr.Value == nil || *tr.Value != want {
			t.Errorf("trial %d %v: %s %v (%s); want %v arguments", tr.Number, tr.Params, tr.State, tr.Value, tr.Reason, want)
		}
		kernels[tr.Params["kernel"].(string)] = true
	}
	if len(trials) != 8 || len(kernels) != 2 {
		t.Errorf("%d trials with kernels %v; want 8 with both kernels", len(trials), kernels)
	}
}
