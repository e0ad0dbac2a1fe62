// Package python finds a Python 3 interpreter that can import the modules
// a test compares boa with (scikit-learn for svm and forest). Debian's
// packages (python3-sklearn) install into /usr/bin/python3, while python3
// on PATH may be a pyenv or virtualenv interpreter without them, so the
// system interpreter is tried first, as bench/peers does for Optuna.
package python

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

const system = "/usr/bin/python3"

// Find returns the first interpreter that imports every module of
// modules: $BOA_PYTHON alone when it is set, otherwise /usr/bin/python3 and
// then python3 on PATH. The error says what was tried.
func Find(modules ...string) (string, error) {
	var cands []string
	if env := os.Getenv("BOA_PYTHON"); env != "" {
		cands = []string{env}
	} else {
		if _, err := os.Stat(system); err == nil {
			cands = append(cands, system)
		}
		if p, err := exec.LookPath("python3"); err == nil && p != system {
			cands = append(cands, p)
		}
	}
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
