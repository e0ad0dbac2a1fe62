package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
	"github.com/boaopt/boa/study"
)

// TestTrialListShowsTheWorker: boa trials ends each row with the worker
// that ran the trial, "-" when none is recorded (a queued trial).
func TestTrialListShowsTheWorker(t *testing.T) {
	sp, err := space.New(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	printTrialTable(&buf, sp, []study.Trial{
		{Number: 0, State: study.Complete, Value: 0.5, Params: space.Assignment{"x": 0.5}, Metrics: map[string]float64{"acc": 0.9}, Worker: "gpu-node-3",
			Started: time.Unix(100, 0), Finished: time.Unix(101, 520e6)},
		{Number: 1, State: study.Waiting, Params: space.Assignment{"x": 0.25}},
	}, true)
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := [][]string{{"TRIAL", "STATE", "VALUE", "x", "acc", "DURATION", "WORKER"}, {"0", "COMPLETE", "0.5", "0.5", "0.9", "1.5s", "gpu-node-3"}, {"1", "WAITING", "-", "0.25", "-", "-", "-"}}
	if len(got) != len(want) {
		t.Fatalf("table:\n%s", buf.String())
	}
	for i, line := range got {
		if f := strings.Fields(line); !slices.Equal(f, want[i]) {
			t.Errorf("line %d: %q, want %q", i, f, want[i])
		}
	}
}

// TestInspectDoesNotCreateStorage: the commands that only read a study
// refuse an SQLite file that does not exist, saying so, instead of
// creating an empty database there (boa studies then showed an empty
// list, and every command left a stray file behind).
func TestInspectDoesNotCreateStorage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "typo.db")
	for _, args := range [][]string{{"studies"}, {"trials", "s"}, {"best", "s"}, {"export", "s"}, {"delete", "s", "--yes"}, {"enqueue", "s", "--param", "x=1"}} {
		_, err := boa(t, append(args, "--storage", "sqlite:"+path)...)
		if err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("boa %s on a missing file: %v", args[0], err)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("boa %s created %s", args[0], path)
		}
	}
}

// TestTrialTableQuotesUnreadableStrings: a categorical value that is
// empty, has a space at an end or holds a newline or tab is quoted in the
// tables and in boa best, so that each trial stays one row with one cell
// per column; other values, unicode and inner spaces included, are shown
// as they are.
func TestTrialTableQuotesUnreadableStrings(t *testing.T) {
	choices := []string{"", " lead", "two\nlines", "a\tb", "a,b", `say "hi"`, "ünïcødé ✓", "linear svm"}
	want := []string{`""`, `" lead"`, `"two\nlines"`, `"a\tb"`, "a,b", `say "hi"`, "ünïcødé ✓", "linear svm"}
	sp, err := space.New(space.Param{Name: "c", Kind: space.Categorical, Choices: choices})
	if err != nil {
		t.Fatal(err)
	}
	var trials []study.Trial
	for i, c := range choices {
		trials = append(trials, study.Trial{Number: i, State: study.Complete, Value: float64(i), Params: space.Assignment{"c": c}, Worker: "w"})
	}
	var buf bytes.Buffer
	printTrialTable(&buf, sp, trials, true)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(choices)+1 {
		t.Fatalf("%d lines for %d trials:\n%s", len(lines), len(choices), buf.String())
	}
	// tabwriter aligns runes: the header's offsets of c, DURATION and
	// WORKER in runes.
	c0 := len([]rune(lines[0][:strings.Index(lines[0], "c ")]))
	d0 := len([]rune(lines[0][:strings.Index(lines[0], "DURATION")]))
	w0 := len([]rune(lines[0][:strings.Index(lines[0], "WORKER")]))
	for i, line := range lines[1:] {
		r := []rune(line)
		if len(r) <= w0 {
			t.Fatalf("trial %d: short row %q", i, line)
		}
		if got := strings.TrimSpace(string(r[c0:d0])); got != want[i] {
			t.Errorf("trial %d: cell %q, want %q", i, got, want[i])
		}
		if got := string(r[w0:]); got != "w" {
			t.Errorf("trial %d: worker cell %q, want w (row %q)", i, got, line)
		}
	}
	if got := paramText(""); got != `""` {
		t.Errorf("boa best of an empty string: %s", got)
	}
}

// TestStudiesListsAnUnreadableStudy: a study this boa cannot open (here a
// sampler it does not know, as a newer boa sharing the database could
// store) is listed with ? for what needs opening it, the other studies
// as usual, and the command fails after the table, naming the study
// (before, the whole listing failed).
func TestStudiesListsAnUnreadableStudy(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := space.New(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := study.Create(ctx, store, study.Spec{Name: "good", Space: sp, Sampler: "random", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	spaceJSON, err := json.Marshal(sp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateStudy(ctx, storage.Study{Name: "future", Direction: "minimize", Space: spaceJSON, Sampler: "from-the-future"}); err != nil {
		t.Fatal(err)
	}
	store.Close()

	out, err := boa(t, "studies", "--storage", url)
	if err == nil || !strings.Contains(err.Error(), "future") || !strings.Contains(err.Error(), "from-the-future") {
		t.Errorf("error %v, want one naming the study and its sampler", err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(line)
		rows[f[0]] = f
	}
	if got := rows["good"]; len(got) < 6 || !slices.Equal(got[1:6], []string{"minimize", "random", "0", "3", "-"}) {
		t.Errorf("row of good: %q\n%s", got, out)
	}
	if got := rows["future"]; len(got) < 6 || !slices.Equal(got[1:6], []string{"minimize", "from-the-future", "?", "-", "?"}) {
		t.Errorf("row of future: %q\n%s", got, out)
	}
}

// TestUnknownStudySaysWhatThereIs: a study name the storage does not
// hold gets the close names (a typo, another case, the start of a name),
// or says the storage holds none, or points at boa studies.
func TestUnknownStudySaysWhatThereIs(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := boa(t, "best", "x", "--storage", url); err == nil || !strings.Contains(err.Error(), "it holds no study") {
		t.Errorf("empty storage: %v", err)
	}
	sp, err := space.New(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"digits-mlp", "quickstart"} {
		if _, err := study.Create(ctx, store, study.Spec{Name: name, Space: sp, Sampler: "random"}); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"quickstar":  "did you mean quickstart?",
		"QuickStart": "did you mean quickstart?",
		"digits":     "did you mean digits-mlp?",
		"digits_mlp": "did you mean digits-mlp?",
		"svm":        "boa studies lists the studies there",
	} {
		_, err := boa(t, "trials", name, "--storage", url)
		if err == nil || !errors.Is(err, storage.ErrNotFound) || !strings.Contains(err.Error(), want) {
			t.Errorf("boa trials %s: %v, want %q", name, err, want)
		}
	}
}

// TestInspectWithoutAStudyName: trials, best and export without a study
// name (or with two) say that they take one and how to call them.
func TestInspectWithoutAStudyName(t *testing.T) {
	for _, args := range [][]string{{"trials"}, {"best", "a", "b"}, {"export", "--format", "json"}} {
		_, err := boa(t, args...)
		if err == nil || !strings.Contains(err.Error(), "takes the name of one study") || !strings.Contains(err.Error(), "boa "+args[0]+" STUDY") {
			t.Errorf("boa %s: %v", strings.Join(args, " "), err)
		}
	}
}

// TestUnknownStudyHidesThePassword: the error for a study that is not in
// a PostgreSQL storage names the storage without its password (it echoed
// the whole URL).
func TestUnknownStudyHidesThePassword(t *testing.T) {
	u, err := url.Parse(storagetest.PostgresURL(t, true))
	if err != nil {
		t.Fatal(err)
	}
	password, ok := u.User.Password()
	if !ok || password == "" {
		t.Skip("BOA_TEST_POSTGRES_URL has no password")
	}
	// A boa database: the inspection commands open it read-only, which
	// refuses one without boa's schema (storage.OpenReadOnly).
	st, err := storage.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, err = boa(t, "trials", "no-such-study", "--storage", u.String())
	if err == nil || !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("error %v, want not found", err)
	}
	if strings.Contains(err.Error(), ":"+password+"@") || !strings.Contains(err.Error(), u.Host) {
		t.Errorf("error %q shows the password or not the host", err)
	}
}

// TestTrialTableMetricNamedLikeAParameter: a metric with the name of a
// parameter gets its own header, metric:NAME, in the trial tables (both
// columns were headed by the bare name).
func TestTrialTableMetricNamedLikeAParameter(t *testing.T) {
	sp, err := space.New(space.Param{Name: "lr", Kind: space.Float, Low: 0, High: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	printTrialTable(&buf, sp, []study.Trial{
		{Number: 0, State: study.Complete, Value: 0.5, Params: space.Assignment{"lr": 0.25}, Metrics: map[string]float64{"lr": 0.125, "acc": 0.75}, Worker: "w"},
	}, true)
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := [][]string{{"TRIAL", "STATE", "VALUE", "lr", "acc", "metric:lr", "DURATION", "WORKER"}, {"0", "COMPLETE", "0.5", "0.25", "0.75", "0.125", "-", "w"}}
	for i, line := range got {
		if f := strings.Fields(line); i >= len(want) || !slices.Equal(f, want[i]) {
			t.Errorf("line %d: %q, want %q", i, f, want[min(i, len(want)-1)])
		}
	}
}

// TestStorageFromTheEnvironment: $BOA_STORAGE is the storage of the
// inspection commands and of boa serve when --storage is not given (so a
// service keeps its database password out of its arguments, which any user
// of the machine can read), and of boa run when the study file names none
// either; --storage wins over it, and --help does not print it.
func TestStorageFromTheEnvironment(t *testing.T) {
	missing := "sqlite:" + filepath.Join(t.TempDir(), "no-such-dir", "missing.db")
	t.Setenv("BOA_STORAGE", missing)
	for _, args := range [][]string{{"studies"}, {"trials", "s"}, {"best", "s"}, {"export", "s"}, {"serve", "--addr", "127.0.0.1:0"}} {
		_, err := boa(t, args...)
		if err == nil || !strings.Contains(err.Error(), "missing.db") {
			t.Errorf("boa %s with BOA_STORAGE=%s: %v, want an error about that file", args[0], missing, err)
		}
	}
	if _, err := boa(t, "studies", "--storage", "memory:"); err != nil {
		t.Errorf("--storage given with BOA_STORAGE set: %v", err)
	}
	// boa run of a file without storage: puts the study where boa studies looks.
	file, url := writeStudy(t, strings.ReplaceAll(sphereStudy, "LOGS", filepath.Join(t.TempDir(), "logs")))
	t.Setenv("BOA_STORAGE", url)
	if _, err := boa(t, "run", file); err != nil {
		t.Fatal(err)
	}
	if out, err := boa(t, "studies"); err != nil || !strings.Contains(out, "sphere") {
		t.Errorf("boa studies with BOA_STORAGE=%s: %v\n%s", url, err, out)
	}
	t.Setenv("BOA_STORAGE", "postgres://boa:pw-from-env@db:5432/boa")
	for _, c := range []string{"studies", "serve"} {
		if out, _ := boa(t, c, "--help"); strings.Contains(out, "pw-from-env") {
			t.Errorf("boa %s --help shows the password of BOA_STORAGE:\n%s", c, out)
		}
	}
}
