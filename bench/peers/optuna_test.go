//go:build unix

package peers

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	interpreters "github.com/boaopt/boa/internal/python"

	"github.com/boaopt/boa/space"
)

// gone reports whether no process has the id (Close reaps the adapter, so
// its id is free at once).
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// anyPython is an interpreter for fake adapters, which need no Optuna.
func anyPython(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(interpreters.System); err == nil {
		return interpreters.System
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run a fake adapter")
	}
	return p
}

// fakeAdapter starts a script in place of the Optuna adapter.
func fakeAdapter(t *testing.T, script string, timeout time.Duration) (*optunaSession, error) {
	sp := mixedSpace()
	return startAdapter(context.Background(), anyPython(t), script, map[string]any{}, timeout, sp)
}

func startOptuna(t *testing.T, name string) *optunaSession {
	t.Helper()
	need(t, name)
	s, err := New(context.Background(), name, mixedSpace(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*optunaSession)
}

// TestOptunaNoLeak checks that Close leaves no process behind.
func TestOptunaNoLeak(t *testing.T) {
	t.Parallel()
	s := startOptuna(t, OptunaRandom)
	ctx := context.Background()
	if _, err := s.Ask(ctx); err != nil {
		t.Fatal(err)
	}
	pid := s.pid()
	if gone(pid) {
		t.Fatal("the adapter is not running after Ask")
	}
	s.Close()
	if !gone(pid) {
		t.Errorf("the adapter (pid %d) survived Close", pid)
	}
}

// TestOptunaCrash kills the adapter behind a session's back: the next
// request fails at once with the exit status, and Close still works.
func TestOptunaCrash(t *testing.T) {
	t.Parallel()
	s := startOptuna(t, OptunaTPE)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.Ask(ctx); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(s.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := s.Tell(ctx, 1)
	if err == nil || !strings.Contains(err.Error(), "closed its output") || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Tell to a killed adapter: %v; want an error naming the exit", err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("the error took %v", d)
	}
	if _, err := s.Ask(ctx); err == nil {
		t.Error("Ask after the crash succeeded")
	}
}

// TestAdapterFailures checks the errors for adapters that die, write
// garbage, refuse, or hang. The timeouts leave room for a loaded machine,
// where starting Python can take seconds.
func TestAdapterFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"exits", `import sys; sys.stdin.readline(); sys.stderr.write("Traceback: boom\n"); sys.exit(3)`,
			[]string{"start: the adapter process", "closed its output", "exit status 3", "Traceback: boom"}},
		{"garbage", `import sys; sys.stdin.readline(); print("hello", flush=True); sys.stdin.readline()`,
			[]string{"not a protocol line", "hello"}},
		{"error", `import sys; sys.stdin.readline(); print('{"error": "no such sampler"}', flush=True)`,
			[]string{"start: no such sampler"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := fakeAdapter(t, tc.script, 30*time.Second)
			if err == nil {
				s.Close()
				t.Fatal("start succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestAdapterTimeout checks that an adapter that stops answering is killed
// after the request timeout, with its last stderr lines in the error.
func TestAdapterTimeout(t *testing.T) {
	t.Parallel()
	s, err := fakeAdapter(t, `import sys, time
sys.stdin.readline(); print('{"ok": true}', flush=True)
sys.stdin.readline(); sys.stderr.write("thinking\n"); sys.stderr.flush(); time.sleep(60)`, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.timeout = time.Second
	start := time.Now()
	_, err = s.Ask(context.Background())
	if err == nil || !strings.Contains(err.Error(), "ask: no answer within 1s") || !strings.Contains(err.Error(), "thinking") {
		t.Errorf("Ask = %v; want a timeout naming the stderr", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout took %v", d)
	}
	pid := s.pid()
	s.Close()
	if !gone(pid) {
		t.Errorf("the adapter (pid %d) survived the timeout and Close", pid)
	}
}

// TestAdapterThatDoesNotRead: a first message larger than the pipe's
// buffer, to an adapter that never reads it, ends after the timeout (the
// write blocked until the adapter exited).
func TestAdapterThatDoesNotRead(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{"padding": strings.Repeat("x", 256<<10)}
	start := time.Now()
	_, err := startAdapter(context.Background(), anyPython(t), "import time; time.sleep(60)", cfg, time.Second, mixedSpace())
	if err == nil || !strings.Contains(err.Error(), "read nothing within 1s") {
		t.Errorf("start = %v; want the adapter killed for reading nothing", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("start took %v", d)
	}
}

// TestCloseDuringAsk checks that Close ends a request that is waiting.
func TestCloseDuringAsk(t *testing.T) {
	t.Parallel()
	s, err := fakeAdapter(t, `import sys, time
sys.stdin.readline(); print('{"ok": true}', flush=True)
sys.stdin.readline(); time.sleep(60)`, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	pid := s.pid()
	done := make(chan error)
	go func() {
		_, err := s.Ask(context.Background())
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	s.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Ask succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ask still waiting 10 s after Close")
	}
	if !gone(pid) {
		t.Errorf("the adapter (pid %d) survived Close", pid)
	}
}

// TestTellAfterFailedAsk checks that a Tell after an Ask that failed is
// refused: it told the value of the earlier configuration to the trial the
// failed ask had left in the adapter.
func TestTellAfterFailedAsk(t *testing.T) {
	t.Parallel()
	s, err := fakeAdapter(t, `import sys
sys.stdin.readline(); print('{"ok": true}', flush=True)
sys.stdin.readline(); print('{"params": {"x": 0, "lr": 0.01, "depth": 8, "width": 64, "opt": "adam"}}', flush=True)
sys.stdin.readline(); print('{"error": "ValueError: boom"}', flush=True)
for line in sys.stdin: print('{"ok": true}', flush=True)`, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Ask(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ask(ctx); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("second Ask = %v, want the adapter's error", err)
	}
	if err := s.Tell(ctx, 1); err == nil || !strings.Contains(err.Error(), "without a pending Ask") {
		t.Errorf("Tell after a failed Ask = %v, want it refused", err)
	}
}

func TestOptunaBadConfig(t *testing.T) {
	need(t, OptunaRandom)
	sp := mixedSpace()
	cfg := map[string]any{"sampler": "annealing", "seed": 1, "space": []adapterParam{}}
	_, err := startAdapter(context.Background(), findPython().path, adapterScript, cfg, time.Minute, sp)
	if err == nil || !strings.Contains(err.Error(), "unknown sampler 'annealing'") {
		t.Errorf("got %v, want the adapter's complaint", err)
	}
}

// TestAvailableSaysWhichPython: an Optuna peer that can run says which
// interpreter and which Optuna run it (peers-and-benchmarks.md, "Running
// the Optuna peer").
func TestAvailableSaysWhichPython(t *testing.T) {
	need(t, OptunaTPE)
	_, note := Available(OptunaTPE)
	py := findPython()
	if want := "Optuna " + py.version + " in " + py.path; note != want || py.version == "" || py.path == "" {
		t.Errorf("Available(%s) note = %q, want %q", OptunaTPE, note, want)
	}
}

// TestFindPython checks BOA_PYTHON and the reason given when it is unusable.
func TestFindPython(t *testing.T) {
	t.Setenv("BOA_PYTHON", "/nonexistent/python3")
	ok, reason := Available(OptunaTPE)
	for _, w := range []string{"BOA_PYTHON", "/nonexistent/python3", "apt-get install python3-optuna", "install-peers.sh"} {
		if !strings.Contains(reason, w) {
			t.Errorf("reason %q lacks %q", reason, w)
		}
	}
	if ok {
		t.Error("Available with a missing BOA_PYTHON")
	}
	if _, err := New(context.Background(), OptunaTPE, space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}), 1); err == nil {
		t.Error("New with a missing BOA_PYTHON succeeded")
	}
	t.Setenv("BOA_PYTHON", "")
	if py := findPython(); py.path != "" && probeOnce(interpreters.System).problem == "" && py.path != interpreters.System {
		t.Errorf("found %s although %s imports optuna", py.path, interpreters.System)
	}
}

// TestOptunaConstantLiar: optuna-tpe-cl is Optuna's TPE with the constant
// liar: the same as optuna-tpe while no trial is out, different once the
// running trials push its suggestions away.
func TestOptunaConstantLiar(t *testing.T) {
	need(t, OptunaTPECL)
	ctx := context.Background()
	sp := mixedSpace()
	kept := map[string][]space.Assignment{}
	for _, name := range []string{OptunaTPE, OptunaTPECL} {
		s, err := New(ctx, name, sp, 7)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		drive(t, name, s, sp, 15, mixedObjective) // past TPE's 10 start-up trials
		for range 3 {
			_, a, err := s.AskTrial(ctx)
			if err != nil {
				t.Fatal(err)
			}
			kept[name] = append(kept[name], a)
		}
	}
	plain, liar := kept[OptunaTPE], kept[OptunaTPECL]
	if !reflect.DeepEqual(plain[0], liar[0]) {
		t.Errorf("with no trial out the two differ:\n%v\n%v", plain[0], liar[0])
	}
	if reflect.DeepEqual(plain[1:], liar[1:]) {
		t.Errorf("with trials out the constant liar changed nothing: %v", liar)
	}
}

// TestOptunaOrdinalDistributions checks, in Optuna itself, the distribution
// each ordinal form reaches it as (issue 37's fair mapping): evenly spaced
// values as stepped numbers, others as the index of the value, ordered, never
// as a categorical.
func TestOptunaOrdinalDistributions(t *testing.T) {
	need(t, OptunaTPE)
	// The script without its entry point, then the check.
	check := strings.Replace(adapterScript, "sys.exit(main())", "pass", 1) + `
import optuna
optuna.logging.set_verbosity(optuna.logging.WARNING)
study = optuna.create_study()
trial = study.ask()
for p in json.loads(sys.argv[1]):
    name, _, suggest, snap = make_param(p)
    v = snap(suggest(trial))
    assert v in p["values"], (name, v)
print(json.dumps({k: type(d).__name__ + ":" + str(getattr(d, "step", "")) for k, d in trial.distributions.items()}))
`
	sp := space.MustNew(
		space.Param{Name: "dec", Kind: space.Ordinal, Values: []float64{0.1, 0.2, 0.3}},
		space.Param{Name: "ints", Kind: space.Ordinal, Values: []float64{16, 32, 48}},
		space.Param{Name: "pow2", Kind: space.Ordinal, Values: []float64{1, 2, 4, 8}},
		space.Param{Name: "decades", Kind: space.Ordinal, Values: []float64{1e-4, 1e-3, 1e-2}},
	)
	var params []adapterParam
	for _, pl := range plans(sp) {
		params = append(params, toAdapter(&pl, sp))
	}
	arg, _ := json.Marshal(params)
	out, err := exec.Command(findPython().path, "-c", check, string(arg)).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var got map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]string{"dec": "FloatDistribution:0.1", "ints": "IntDistribution:16",
		"pow2": "IntDistribution:1", "decades": "IntDistribution:1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("distributions %v, want %v", got, want)
	}
}
