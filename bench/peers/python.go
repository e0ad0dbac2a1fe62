package peers

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	interpreters "github.com/boaopt/boa/internal/python"
)

// installHint says how to get the Optuna peers.
const installHint = "install it with `sudo apt-get install python3-optuna` (or scripts/install-peers.sh), " +
	"or set BOA_PYTHON to a python3 that can import Optuna 3 or later"

// python is the outcome of looking for an interpreter with Optuna: path and
// Optuna's version when found, else a reason that lists what was tried.
type python struct {
	path, version, reason string
}

var (
	probeMu    sync.Mutex
	probeCache = map[string]probe{}
)

// probe is what one interpreter said when asked to import Optuna.
type probe struct {
	version string // Optuna's version, "" if the import failed
	problem string // why it is unusable
}

// findPython returns the first interpreter that imports Optuna 3 or later:
// $BOA_PYTHON alone when it is set (an explicit choice is not second-guessed),
// otherwise /usr/bin/python3 and then python3 on PATH (which may be a pyenv
// or virtualenv interpreter without Debian's packages).
func findPython() python {
	cands := interpreters.Interpreters()
	if len(cands) == 0 {
		return python{reason: "python3-optuna is not installed: no python3 found; " + installHint}
	}
	var problems []string
	for _, c := range cands {
		pr := probeOnce(c)
		if pr.problem == "" {
			return python{path: c, version: pr.version}
		}
		problems = append(problems, c+" "+pr.problem)
	}
	what := "python3-optuna is not installed"
	if os.Getenv("BOA_PYTHON") != "" {
		what = "BOA_PYTHON cannot run the Optuna peers"
	}
	return python{reason: fmt.Sprintf("%s: %s; %s", what, strings.Join(problems, "; "), installHint)}
}

func probeOnce(path string) probe {
	probeMu.Lock()
	defer probeMu.Unlock()
	if pr, ok := probeCache[path]; ok {
		return pr
	}
	pr := probePython(path)
	probeCache[path] = pr
	return pr
}

// probePython asks an interpreter for Optuna's version. Importing Optuna
// takes about a second, hence the generous timeout.
func probePython(path string) probe {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-c", "import optuna; print(optuna.__version__)")
	cmd.Env = pythonEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := lastLine(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return probe{problem: "cannot import optuna (" + msg + ")"}
	}
	v := strings.TrimSpace(out.String())
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n < 3 {
		return probe{problem: "has Optuna " + v + ", older than 3.0"}
	}
	return probe{version: v}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// pythonEnv is the environment of every Python process: the caller's, with
// a fixed hash seed (set and dict orders inside Optuna must not vary between
// runs with the same seed) and one BLAS thread (the harness runs one peer
// per core; Optuna's documentation advises OMP_NUM_THREADS=1 as well).
func pythonEnv() []string {
	env := os.Environ()
	set := func(k, v string, override bool) {
		if _, ok := os.LookupEnv(k); ok && !override {
			return
		}
		env = append(env, k+"="+v)
	}
	set("PYTHONHASHSEED", "0", true)
	set("PYTHONUNBUFFERED", "1", true)
	set("PYTHONDONTWRITEBYTECODE", "1", false)
	for _, k := range []string{"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"} {
		set(k, "1", false)
	}
	return env
}
