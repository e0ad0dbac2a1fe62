package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/bench"
)

func runJSON(t *testing.T, args ...string) (map[string]any, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs(append([]string{"run", "--json"}, args...))
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		return nil, err
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out.String())
	}
	if strings.Count(strings.TrimSpace(out.String()), "\n") != 0 {
		t.Fatalf("stdout has more than one line:\n%s", out.String())
	}
	return res, nil
}

func TestRunJSON(t *testing.T) {
	res, err := runJSON(t, "--function", "branin", "--trials", "8", "--sampler", "random", "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"function", "sampler", "seed", "trials", "best_value", "best_params", "optimum", "regret"} {
		if _, ok := res[key]; !ok {
			t.Errorf("JSON lacks %q: %v", key, res)
		}
	}
	if res["function"] != "branin" || res["sampler"] != "random" || res["seed"] != 3.0 || res["trials"] != 8.0 {
		t.Errorf("unexpected header fields: %v", res)
	}
	params := res["best_params"].(map[string]any)
	if len(params) != 2 {
		t.Errorf("best_params = %v, want x1 and x2", params)
	}
	if reg := res["regret"].(float64); reg < 0 || reg != res["best_value"].(float64)-res["optimum"].(float64) {
		t.Errorf("regret %v inconsistent with best %v and optimum %v", reg, res["best_value"], res["optimum"])
	}
}

func TestRunUnknownOptimumIsNull(t *testing.T) {
	res, err := runJSON(t, "--function", "michalewicz", "--dim", "11", "--trials", "3", "--sampler", "sobol")
	if err != nil {
		t.Fatal(err)
	}
	if res["optimum"] != nil || res["regret"] != nil {
		t.Fatalf("optimum %v, regret %v; want null for michalewicz in 11-D", res["optimum"], res["regret"])
	}
}

func TestRunBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--function", "nosuch", "--trials", "3"}, "nosuch"},
		{[]string{"--function", "branin", "--trials", "0"}, "--trials"},
		{[]string{"--function", "branin", "--trials", "3", "--sampler", "magic"}, "unknown sampler"},
		{[]string{"--function", "branin", "--dim", "3", "--trials", "3"}, "branin"},
		{[]string{"--function", "nosuch", "--trials", "3"}, "func3c"},   // the mixed problems are listed too
		{[]string{"--function", "nosuch", "--trials", "3"}, "jenatton"}, // and the conditional ones
		{[]string{"--function", "pest", "--dim", "3", "--trials", "3"}, "fixed space"},
		{[]string{"--function", "jenatton", "--dim", "3", "--trials", "3"}, "fixed space"},
		{[]string{"--trials", "3"}, "function"},
	} {
		_, err := runJSON(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("boa run %v: err = %v, want mention of %q", tc.args, err, tc.want)
		}
	}
}

// A conditional problem runs like a test function, with the parameters
// of its best branch only in best_params.
func TestRunConditionalProblem(t *testing.T) {
	res, err := runJSON(t, "--function", "jenatton", "--trials", "15", "--sampler", "tpe")
	if err != nil {
		t.Fatal(err)
	}
	params := res["best_params"].(map[string]any)
	if len(params) != 4 || res["optimum"] != 0.1 || res["regret"].(float64) < 0 {
		t.Fatalf("result %v, want a branch's 4 parameters", res)
	}
}

// A mixed problem runs like a test function, with its categories in
// best_params (Func-3C), and gives what boa bench gives for the same
// sampler, seed and budget (Pest Control, which has no noise).
func TestRunMixedProblem(t *testing.T) {
	res, err := runJSON(t, "--function", "func3c", "--trials", "30", "--sampler", "cocabo")
	if err != nil {
		t.Fatal(err)
	}
	params := res["best_params"].(map[string]any)
	if h, ok := params["h1"].(string); !ok || h == "" || len(params) != 5 {
		t.Fatalf("best_params = %v, want h1..h3 (categories) and x1, x2", params)
	}
	if res["function"] != "func3c" || res["optimum"] == nil || res["regret"].(float64) < 0 {
		t.Fatalf("result %v", res)
	}

	res, err = runJSON(t, "--function", "pest", "--trials", "30", "--sampler", "casmopolitan", "--seed", "2")
	if err != nil {
		t.Fatal(err)
	}
	out, err := boa(t, "bench", "--problems", "pest", "--samplers", "casmopolitan", "--seeds", "2", "--budget", "30", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var b bench.Report
	if err := json.Unmarshal([]byte(out), &b); err != nil || len(b.Results) != 2 {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	for _, r := range b.Results {
		if r.Seed == 2 && float64(r.FinalBest) != res["best_value"].(float64) {
			t.Fatalf("boa run: best %v; boa bench, same seed and budget: %v", res["best_value"], r.FinalBest)
		}
	}
}

// TestRunAutoJSONSaysWhichSampler: with --sampler auto the JSON line keeps
// "sampler":"auto" (DESIGN.md §2.1) and names what auto ran; other samplers
// have no chosen_sampler.
func TestRunAutoJSONSaysWhichSampler(t *testing.T) {
	for _, tc := range []struct{ function, sampler, want string }{
		{"func2c", "auto", "cocabo"},
		{"pest", "auto", "casmopolitan"},
		{"branin", "auto", "gpbo"},
		{"branin", "random", ""},
	} {
		res, err := runJSON(t, "--function", tc.function, "--trials", "3", "--sampler", tc.sampler)
		if err != nil {
			t.Fatal(err)
		}
		chosen, present := res["chosen_sampler"]
		if res["sampler"] != tc.sampler || tc.want != "" && chosen != tc.want || tc.want == "" && present {
			t.Errorf("%s with %s: sampler %v, chosen_sampler %v; want %s, %q", tc.function, tc.sampler, res["sampler"], chosen, tc.sampler, tc.want)
		}
	}
	var out, errOut bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs([]string{"run", "--function", "func2c", "--trials", "3"})
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := cmd.ExecuteContext(context.Background()); err != nil || !strings.Contains(out.String(), "sampler   auto (cocabo)") {
		t.Errorf("summary does not name auto's choice: %v\n%s", err, out.String())
	}
}

// TestInterruptedError: after Ctrl-C, boa run says the running trials were
// re-queued, unless the storage refused some of their results: then it
// names them and says when they run again.
func TestInterruptedError(t *testing.T) {
	if err := interruptedError(context.Canceled, "s.yaml", time.Minute); !strings.Contains(err.Error(), "recorded as FAILED and re-queued; continue with: boa run s.yaml --resume") {
		t.Errorf("plain interruption: %v", err)
	}
	refused := errors.New("trial 3 map[x:1]: its result (FAILED: interrupted) was not recorded: disk I/O error")
	err := interruptedError(errors.Join(context.Canceled, refused), "s.yaml", time.Minute)
	if !strings.Contains(err.Error(), "trial 3 map[x:1]") || !strings.Contains(err.Error(), "stay RUNNING and are re-run by boa run s.yaml --resume once their lease (1m0s)") || strings.Contains(err.Error(), "were recorded") {
		t.Errorf("interruption with a result not recorded: %v", err)
	}
}
