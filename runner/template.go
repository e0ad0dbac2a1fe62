package runner

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/space"
)

// piece is a literal run of an argument, or a placeholder when param is set.
type piece struct {
	text  string
	param bool
}

// parseArg splits one argument into literals and {name} placeholders.
// Braces are strict (a lone } is an error) so that a shell snippet such as
// awk '{print $1}' is caught at validation instead of being passed through
// half-substituted.
func parseArg(arg string) ([]piece, error) {
	var out []piece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, piece{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(arg); {
		switch arg[i] {
		case '{':
			if i+1 < len(arg) && arg[i+1] == '{' {
				lit.WriteByte('{')
				i += 2
				continue
			}
			end := strings.IndexAny(arg[i+1:], "{}")
			if end < 0 || arg[i+1+end] != '}' {
				return nil, fmt.Errorf("unclosed { at byte %d (write {{ for a literal brace)", i)
			}
			name := arg[i+1 : i+1+end]
			if name == "" {
				return nil, fmt.Errorf("empty placeholder {} at byte %d (write {{}} for literal braces)", i)
			}
			flush()
			out = append(out, piece{text: name, param: true})
			i += end + 2
		case '}':
			if i+1 < len(arg) && arg[i+1] == '}' {
				lit.WriteByte('}')
				i += 2
				continue
			}
			return nil, fmt.Errorf("unmatched } at byte %d (write }} for a literal brace)", i)
		default:
			lit.WriteByte(arg[i])
			i++
		}
	}
	flush()
	return out, nil
}

// Substitute replaces {name} placeholders in args with the values of params:
// a json.Number as it is, which is how a trial's params reach a command
// from boa run and boa worker (space.Space.Export: a Float parameter at 1 as
// 1.0, an Int as digits); otherwise in canonical form (space.Format), but
// integers, and whole floats below 1e21, as digits without a decimal
// point or exponent; other floats in the shortest representation that
// reads back exactly; booleans as true/false, strings verbatim. {{ and }} are literal braces. A placeholder
// naming no parameter of params, or one whose value is nil, is an error
// naming it.
func Substitute(args []string, params map[string]any) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		pieces, err := parseArg(a)
		if err != nil {
			return nil, fmt.Errorf("command[%d] %q: %w", i, a, err)
		}
		var b strings.Builder
		for _, p := range pieces {
			if !p.param {
				b.WriteString(p.text)
				continue
			}
			v, ok := params[p.text]
			if !ok || v == nil {
				return nil, fmt.Errorf("command[%d] %q: parameter {%s} has no value in this trial (known: %s)",
					i, a, p.text, strings.Join(sortedKeys(params), ", "))
			}
			b.WriteString(formatArg(v))
		}
		out[i] = b.String()
	}
	return out, nil
}

// formatArg writes a json.Number as it is: that is the text the space
// gave the value by its parameter's kind (space.Space.Export, which boa run
// and boa worker apply to a trial's params), or the HTTP API's, which is
// the same; a float stays a float (1.0), an integer keeps its digits,
// beyond 2⁵³ too. Other values are space.Format, except for whole numbers,
// which are written with their digits below 1e21 (as encoding/json writes
// them): space.Format writes the float64 1000000 (an ordinal value such as
// a step count) as 1e+06, which int() and argparse's type=int refuse.
// Without the space a float64 cannot tell a Float parameter from an
// Ordinal one, so a whole float64 is written as an integer.
func formatArg(v any) string {
	if n, ok := v.(json.Number); ok {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		if _, err := n.Float64(); err == nil {
			return string(n)
		}
	}
	if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return space.Format(v)
}

// ValidateSpace is Validate against the study's space (not nil), which
// also refuses a placeholder of a conditional parameter (one with When):
// it has no value in the trials where the parameter is inactive, and all
// of those would fail. Such a command reads BOA_PARAMS, which holds the
// active parameters only.
func ValidateSpace(c Command, sp *space.Space) error {
	if err := Validate(c, sp.Names()); err != nil {
		return err
	}
	for i, a := range c.Args {
		pieces, _ := parseArg(a) // Validate has parsed it
		for _, p := range pieces {
			if !p.param {
				continue
			}
			j, _ := sp.Index(p.text) // Validate has checked the name
			if when := sp.Param(j).When; len(when) > 0 {
				var conds []string
				for _, parent := range sortedKeys(when) {
					conds = append(conds, parent+": ["+strings.Join(when[parent], ", ")+"]")
				}
				return fmt.Errorf("command[%d] %q: {%s} is a conditional parameter (when: {%s}): it has no value in the trials where it is inactive, which would all fail; "+
					"read conditional parameters from BOA_PARAMS instead (a JSON object of the trial's active parameters)",
					i, a, p.text, strings.Join(conds, ", "))
			}
		}
	}
	return nil
}

// Validate checks a command before any trial runs: Args must name a
// program, every placeholder must be one of names, Env entries must be
// KEY=VALUE, neither may hold a NUL byte (exec would fail every trial),
// and durations must not be negative. A key with '=' cannot be told from
// its value here: build Env from a map with Env, which refuses it. Callers
// that have the space use ValidateSpace.
func Validate(c Command, names []string) error {
	if len(c.Args) == 0 {
		return fmt.Errorf("command is empty: give the program and its arguments")
	}
	if c.Args[0] == "" {
		return fmt.Errorf("command[0] is empty: it must name the program to run")
	}
	for i, a := range c.Args {
		pieces, err := parseArg(a)
		if err != nil {
			return fmt.Errorf("command[%d] %q: %w", i, a, err)
		}
		for _, p := range pieces {
			if p.param && !slices.Contains(names, p.text) {
				known := "none: the space is empty"
				if len(names) > 0 {
					known = strings.Join(names, ", ")
				}
				return fmt.Errorf("command[%d] %q: unknown parameter {%s} (known: %s)", i, a, p.text, known)
			}
		}
	}
	for i, a := range c.Args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("command[%d] %q: contains a NUL byte, which no argument can carry", i, a)
		}
	}
	for i, e := range c.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return fmt.Errorf("env[%d] %q: want KEY=VALUE", i, e)
		}
		if strings.IndexByte(e, 0) >= 0 {
			return fmt.Errorf("env[%d] %q: contains a NUL byte, which no environment variable can carry", i, e)
		}
	}
	if c.Timeout < 0 {
		return fmt.Errorf("timeout %v is negative", c.Timeout)
	}
	if c.Grace < 0 {
		return fmt.Errorf("grace period %v is negative", c.Grace)
	}
	return nil
}

// Env turns an env: map of a study file into Command.Env, sorted by key.
// It refuses what the environment cannot carry, which would otherwise fail
// every trial or set another variable: an empty key, a key with '=' (a key
// "A=B" with value x would set A to "B=x"), a NUL byte in a key or value.
func Env(m map[string]string) ([]string, error) {
	env := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch {
		case k == "":
			return nil, fmt.Errorf("env: empty variable name")
		case strings.IndexByte(k, '=') >= 0:
			return nil, fmt.Errorf("env: variable name %q contains '=', which ends a name in the environment", k)
		case strings.IndexByte(k, 0) >= 0:
			return nil, fmt.Errorf("env: variable name %q contains a NUL byte", k)
		case strings.IndexByte(v, 0) >= 0:
			return nil, fmt.Errorf("env: the value of %s contains a NUL byte, which no environment variable can carry", k)
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
