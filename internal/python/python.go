// Package python finds a Python 3 interpreter that can import the modules
// a test compares boa with (scikit-learn for svm and forest). Debian's
// packages (python3-sklearn) install into /usr/bin/python3, while python3
// on PATH may be a pyenv or virtualenv interpreter without them, so the
// system interpreter is tried first (Interpreters), by the parity tests
// and by bench/peers when it looks for Optuna. RunJSON exchanges JSON with
// a script.
package python

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// System is where Debian's Python packages are importable from.
const System = "/usr/bin/python3"

// Interpreters lists the interpreters to try, in order: $BOA_PYTHON alone
// when it is set (an explicit choice is not second-guessed), otherwise
// /usr/bin/python3 and then python3 on PATH.
func Interpreters() []string {
	if env := os.Getenv("BOA_PYTHON"); env != "" {
		return []string{env}
	}
	var cands []string
	if _, err := os.Stat(System); err == nil {
		cands = append(cands, System)
	}
	if p, err := exec.LookPath("python3"); err == nil && p != System {
		cands = append(cands, p)
	}
	return cands
}

// Find returns the first of Interpreters that imports every module of
// modules. The error says what was tried.
func Find(modules ...string) (string, error) {
	cands := Interpreters()
	if len(cands) == 0 {
		return "", fmt.Errorf("no python3 found")
	}
	imp := "import " + strings.Join(modules, ", ")
	for _, c := range cands {
		if exec.Command(c, "-c", imp).Run() == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("none of %s can %q", strings.Join(cands, ", "), imp)
}

// RunJSON runs script with interpreter py, writes in to its standard input
// as JSON and decodes what it prints into out. The error carries the
// script's standard error.
func RunJSON(py, script string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", py, err, stderr.String())
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s: output %.200q: %w", py, raw, err)
	}
	return nil
}
