package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinyMLCheckBaselines: boa tinyml check prints the figures of
// Tables 7.4–7.5 for the two baseline networks of examples/tinyml and
// the deployability verdicts with the published X-CROSS values.
func TestTinyMLCheckBaselines(t *testing.T) {
	for _, c := range []struct {
		args      []string
		want      []string
		big, tiny string // the DEPLOYABLE column
	}{
		{[]string{"examples/tinyml/har-baseline.json", "--compression", "4", "--xcross", "99.98"},
			[]string{"params    738950", "794136 B (794.14 kB)", "24576 B (24.58 kB)", "MACC      874752"}, "yes", "NO"},
		{[]string{"examples/tinyml/har-baseline.json", "--compression", "8"},
			[]string{"375448 B (375.45 kB)", "98.16 % (analytic estimate)"}, "yes", "NO"},
		{[]string{"examples/tinyml/har-baseline.json", "--compression", "1"},
			[]string{"2955800 B (2955.80 kB)"}, "NO", "NO"},
		{[]string{"examples/tinyml/ir-baseline.json", "--compression", "8", "--xcross", "99.05"},
			[]string{"params    1247780", "862416 B (862.42 kB)", "140800 B (140.80 kB)", "MACC      20863360"}, "NO", "NO"},
		{[]string{"examples/tinyml/ir-baseline.json", "--compression", "4"},
			[]string{"1453200 B (1453.20 kB)"}, "NO", "NO"},
	} {
		out, err := boa(t, append([]string{"tinyml", "check", filepath.Join("..", "..", c.args[0])}, c.args[1:]...)...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
		if big, tiny := deployable(out, "stm32l476"), deployable(out, "stm32f303"); big != c.big || tiny != c.tiny {
			t.Errorf("%v: deployable on the Big Board %q, the Tiny Board %q; Tables 7.4–7.5 say %q, %q:\n%s", c.args, big, tiny, c.big, c.tiny, out)
		}
	}
}

// deployable is the DEPLOYABLE column of board's row in boa tinyml
// check's output.
func deployable(out, board string) string {
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == board {
			return f[len(f)-1]
		}
	}
	return ""
}

// TestTinyMLCheckErrors: an unknown board, a broken description and a
// boards file with a bad field each name what is wrong; a user's board
// from --boards is checked.
func TestTinyMLCheckErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"input": [90, 3, 1], "layers": [{"type": "lstm", "units": 8}]}`), 0o644)
	boards := filepath.Join(dir, "boards.yaml")
	os.WriteFile(boards, []byte("- name: f401\n  mcu: STM32F401RE\n  ram_bytes: 96000\n  rom_bytes: 512000\n  min_xcross: 95\n"), 0o644)
	badBoards := filepath.Join(dir, "bad-boards.yaml")
	os.WriteFile(badBoards, []byte("- name: f401\n  ram_bytes: -1\n  rom_bytes: 5\n"), 0o644)
	har := filepath.Join("..", "..", "examples", "tinyml", "har-baseline.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{har, "--board", "esp32"}, `board "esp32": unknown`},
		{[]string{bad}, `layers[0].type: unknown layer "lstm"`},
		{[]string{har, "--boards", badBoards}, "boards[0] (f401).ram_bytes: -1 must be ≥ 1"},
		{[]string{har, "--compression", "2"}, "×2 is not one of ×1, ×4, ×8"},
	} {
		_, err := boa(t, append([]string{"tinyml", "check"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error containing %q", c.args, err, c.want)
		}
	}
	for f, want := range map[string]string{"4": "NO", "8": "yes"} { // ROM 794,136 and 375,448 B against 512,000
		out, err := boa(t, "tinyml", "check", har, "--compression", f, "--boards", boards, "--board", "f401")
		if got := deployable(out, "f401"); err != nil || got != want {
			t.Errorf("the HAR baseline ×%s on a 96 kB / 512 kB board: %v, deployable %q, want %q:\n%s", f, err, got, want, out)
		}
	}
}
