package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
)

// noControl fails the test if s holds a byte a terminal acts on (ESC,
// '\r', NUL, ...) or one that is not UTF-8.
func noControl(t *testing.T, what, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0xff {
			t.Errorf("%s has byte %#x at %d:\n%q", what, c, i, s)
			return
		}
	}
}

// A failing script's ANSI and binary output reaches the terminal escaped:
// in boa run's error, and in boa trials, also for a reason some client of
// the HTTP API stored raw.
func TestFailingOutputEscaped(t *testing.T) {
	study := strings.ReplaceAll(sphereStudy, `'echo "BOA_REPORT 1 $0"; echo "BOA_METRIC n2 $(($1*$1))"; echo "BOA_RESULT $0"'`,
		`'printf "\033[31mboom\033[0m\033]0;title\007\377\r\n" >&2; exit 3'`)
	file, url := writeStudy(t, strings.ReplaceAll(study, "LOGS", filepath.Join(t.TempDir(), "logs")))
	out, err := boa(t, "run", file, "--storage", url, "--trials", "2", "--workers", "1")
	if err == nil || !strings.Contains(err.Error(), `exit code 3: \x1b[31mboom\x1b[0m\x1b]0;title\a\xff`) {
		t.Fatalf("err = %v; want the escaped output", err)
	}
	noControl(t, "boa run's error", err.Error())
	noControl(t, "boa run's output", out)

	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	studies, err := s.ListStudies(t.Context())
	if err != nil || len(studies) != 1 {
		t.Fatal(studies, err)
	}
	tr, err := s.AddTrial(t.Context(), storage.Trial{StudyID: studies[0].ID, Params: []byte(`{"x":0,"n":0,"act":"relu"}`), State: storage.Running, RetryOf: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTrial(t.Context(), tr.ID, storage.Finish{State: storage.Failed, Reason: "\x1b[2J\x1b[Hcleared your screen"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, err = boa(t, "trials", "sphere", "--storage", url)
	if err != nil {
		t.Fatal(err)
	}
	noControl(t, "boa trials", out)
	if !strings.Contains(out, `\x1b[2J\x1b[Hcleared your screen`) || !strings.Contains(out, `\x1b[31mboom`) {
		t.Errorf("boa trials does not show the escaped reasons:\n%s", out)
	}
}
