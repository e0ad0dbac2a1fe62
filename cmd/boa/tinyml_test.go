package main

import (
	"encoding/json"
	"fmt"
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

// TestTinyMLStudyFile runs examples/tinyml/har-tiny.yaml as its comment
// says, with 12 trials and a private SQLite file: no trial is spent on a
// network over the Tiny Board's limits (each is known before it runs),
// and the best trial is deployable, as boa tinyml check confirms on its
// network.
func TestTinyMLStudyFile(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tinyml", "har-tiny.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "har-tiny.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(string(src), "trials: 40", "trials: 12", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "boa.db")
	out, err := boa(t, "run", file, "--storage", url)
	if err != nil {
		t.Fatalf("boa run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "ram_bytes <= 16000, rom_bytes <= 60000, xcross >= 95: 12 feasible, 0 infeasible") {
		t.Errorf("boa run's summary:\n%s", out)
	}
	js, err := boa(t, "best", "har-tiny-x8", "--storage", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var best struct {
		Params   map[string]any     `json:"params"`
		Metrics  map[string]float64 `json:"metrics"`
		Feasible *bool              `json:"feasible"`
	}
	if err := json.Unmarshal([]byte(js), &best); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	if best.Feasible == nil || !*best.Feasible || best.Metrics["ram_bytes"] > 16000 || best.Metrics["rom_bytes"] > 60000 {
		t.Fatalf("best trial: %s", js)
	}
	// The same network through boa tinyml check.
	p := best.Params
	net := fmt.Sprintf(`{"input": [90, 3, 1], "layers": [
		{"type": "conv2d", "filters": %v, "kernel": %v, "activation": %q}, {"type": "maxpool2d", "pool": %v},
		{"type": "dropout", "rate": %v}, {"type": "flatten"},
		{"type": "dense", "units": %v, "activation": %q}, {"type": "dense", "units": %v, "activation": %q},
		{"type": "dense", "units": 6, "activation": "softmax"}]}`,
		p["conv_filters"], p["conv_kernel"], p["conv_activation"], p["pool"], p["dropout"], p["dense_units"], p["dense_activation"], p["dense_units"], p["dense_activation"])
	model := filepath.Join(dir, "best.json")
	os.WriteFile(model, []byte(net), 0o644)
	out, err = boa(t, "tinyml", "check", model, "--compression", "8", "--board", "tiny")
	if err != nil || deployable(out, "stm32f303") != "yes" || !strings.Contains(out, fmt.Sprintf("%d B", int(best.Metrics["ram_bytes"]))) {
		t.Errorf("boa tinyml check on the best network: %v\n%s", err, out)
	}
}
