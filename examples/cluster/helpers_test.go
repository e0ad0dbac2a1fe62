package cluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage/storagetest"
)

// repoRoot is the repository checkout: the examples' commands are relative
// to it, as they are to the training code's folder in a real deployment.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

func TestMain(m *testing.M) { os.Exit(boaproc.Main(m)) }

// storageURL is a private PostgreSQL schema when BOA_TEST_POSTGRES_URL is
// set (what the examples are for), else a SQLite file, which several
// servers on one machine can share too.
func storageURL(t *testing.T) string {
	if os.Getenv(storagetest.PostgresEnv) != "" {
		return storagetest.PostgresURL(t, false)
	}
	t.Logf("%s not set: the servers share a SQLite file instead of PostgreSQL", storagetest.PostgresEnv)
	return "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
}

// baseEnv is the environment a scheduler gives a process before its own
// variables: PATH (with the test's boa first) and HOME, no BOA_* of the
// developer's.
func baseEnv(t *testing.T) []string {
	return []string{
		"PATH=" + filepath.Dir(boaproc.Binary(t)) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
	}
}

// proc is a running process; it is killed if still running when the test ends.
type proc struct {
	name   string
	cmd    *exec.Cmd
	output *boaproc.Buffer
	done   chan error
}

// start runs argv in dir with exactly env. A bare "boa" is the test's
// binary (exec resolves names on the test's PATH, not on env's).
func start(t *testing.T, name string, argv, env []string, dir string) *proc {
	t.Helper()
	if argv[0] == "boa" {
		argv = append([]string{boaproc.Binary(t)}, argv[1:]...)
	}
	p := &proc{name: name, cmd: exec.Command(argv[0], argv[1:]...), output: &boaproc.Buffer{}, done: make(chan error, 1)}
	p.cmd.Env, p.cmd.Dir = env, dir
	p.cmd.Stdout, p.cmd.Stderr = p.output, p.output
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	return p
}

// wait waits for p to exit 0.
func (p *proc) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("%s: %v\n%s", p.name, err, p.output)
		}
	case <-time.After(d):
		t.Errorf("%s still running after %v\n%s", p.name, d, p.output)
	}
}

// startServer runs a `boa serve` command and returns its URL once it
// listens; it is stopped with SIGTERM, as a scheduler does, when the test ends.
func startServer(t *testing.T, name string, argv, env []string, dir string) string {
	t.Helper()
	if argv[0] == "boa" {
		argv = append([]string{boaproc.Binary(t)}, argv[1:]...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	return boaproc.StartServer(t, name, cmd).URL
}

// setFlag replaces the value of --flag (as "--flag V" or "--flag=V") in
// boa's arguments, before the "--" that starts the trial's command, and
// returns the value the example file gave.
func setFlag(t *testing.T, argv []string, flag, value string) string {
	t.Helper()
	for i, a := range argv {
		if a == "--" {
			break
		}
		if a == flag && i+1 < len(argv) {
			old := argv[i+1]
			argv[i+1] = value
			return old
		}
		if old, ok := strings.CutPrefix(a, flag+"="); ok {
			argv[i] = flag + "=" + value
			return old
		}
	}
	t.Fatalf("no %s in %q", flag, argv)
	return ""
}

// createStudy creates the study of study.json, as the README's curl does,
// and returns its name and budget.
func createStudy(t *testing.T, url, token string) (string, int) {
	t.Helper()
	spec, err := os.ReadFile("study.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := client.New(url, token).CreateStudy(ctx, spec)
	if err != nil {
		t.Fatalf("create the study of study.json: %v", err)
	}
	if st.Budget <= 0 {
		t.Fatalf("study.json has no trial budget, so no worker would ever finish: %+v", st)
	}
	return st.Name, st.Budget
}

// checkComplete checks that the study used its whole budget on COMPLETE
// trials: nothing failed, nothing ran twice.
func checkComplete(t *testing.T, url, token, name string, budget int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	trials, err := client.New(url, token).Trials(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	workers := map[string]bool{}
	for _, tr := range trials {
		if tr.State != "COMPLETE" {
			t.Errorf("trial %d is %s (%s), want COMPLETE", tr.Number, tr.State, tr.Reason)
		}
		workers[tr.Worker] = true
	}
	if len(trials) != budget {
		t.Errorf("%d trials, want the budget of %d", len(trials), budget)
	}
	t.Logf("%d trials COMPLETE, run by %d workers", len(trials), len(workers))
}

// noSecretIn fails when a secret is among a command's arguments, which any
// user of the machine (or of the node) can read in the process list.
func noSecretIn(t *testing.T, argv []string, secrets ...string) {
	t.Helper()
	for _, a := range argv {
		for _, s := range secrets {
			if strings.Contains(a, s) {
				t.Errorf("argument %q holds a secret: pass it in the environment", a)
			}
		}
	}
}
