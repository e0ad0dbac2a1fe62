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
	// optional marks {name?}: without a value for name, the argument (or
	// the group it is in) is dropped instead of failing the trial.
	optional bool
}

// parseArg splits one argument into literals and {name} and {name?}
// placeholders. Braces are strict (a lone } is an error) so that a shell
// snippet such as awk '{print $1}' is caught at validation instead of being
// passed through half-substituted. A trailing ? is always the optional
// mark, never part of the name.
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
			optional := strings.HasSuffix(name, "?")
			name = strings.TrimSuffix(name, "?")
			if name == "" {
				return nil, fmt.Errorf("empty placeholder {%s} at byte %d (write {{%s}} for literal braces)", arg[i+1:i+1+end], i, arg[i+1:i+1+end])
			}
			flush()
			out = append(out, piece{text: name, param: true, optional: optional})
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
// reads back exactly; booleans as true/false, strings verbatim. {{ and }}
// are literal braces. A placeholder naming no parameter of params, or one
// whose value is nil (an inactive conditional parameter), is an error
// naming it, unless it is optional, {name?}: then the argument is left
// out. Command.Argv also drops groups of arguments.
func Substitute(args []string, params map[string]any) ([]string, error) {
	return Command{Args: args}.Argv(params)
}

// Argv is the command's argument list for a trial with params: Args
// substituted as Substitute does, less each argument, and each group
// (Groups), that holds an optional placeholder {name?} without a value.
func (c Command) Argv(params map[string]any) ([]string, error) {
	if err := c.checkGroups(); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(c.Args))
	for from := 0; from < len(c.Args); {
		to := from + 1
		if g, ok := c.groupAt(from); ok {
			to = g.To
		}
		unit := make([][]piece, to-from)
		drop := false
		for j := from; j < to; j++ {
			pieces, err := parseArg(c.Args[j])
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", c.ref(j), c.Args[j], err)
			}
			unit[j-from] = pieces
			for _, p := range pieces {
				drop = drop || p.optional && params[p.text] == nil
			}
		}
		for j := from; j < to && !drop; j++ {
			var b strings.Builder
			for _, p := range unit[j-from] {
				if !p.param {
					b.WriteString(p.text)
					continue
				}
				v, ok := params[p.text]
				if !ok || v == nil {
					return nil, fmt.Errorf("%s %q: parameter {%s} has no value in this trial (known: %s)",
						c.ref(j), c.Args[j], p.text, strings.Join(sortedKeys(params), ", "))
				}
				b.WriteString(formatArg(v))
			}
			out = append(out, b.String())
		}
		from = to
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
// also refuses a plain placeholder {x} of a conditional parameter (one
// with When): it has no value in the trials where the parameter is
// inactive, and all of those would fail. The optional {x?} leaves the
// argument out in those trials; BOA_PARAMS holds the active parameters
// only. extra names the placeholders that are not parameters: the study's
// fidelity (Trial.Fidelity).
func ValidateSpace(c Command, sp *space.Space, extra ...string) error {
	if err := Validate(c, append(sp.Names(), extra...)); err != nil {
		return err
	}
	for i, a := range c.Args {
		pieces, _ := parseArg(a) // Validate has parsed it
		for _, p := range pieces {
			if !p.param || p.optional {
				continue
			}
			j, ok := sp.Index(p.text) // Validate has checked the name
			if !ok {
				continue // one of extra: the fidelity
			}
			if when := sp.Param(j).When; len(when) > 0 {
				var conds []string
				for _, parent := range sortedKeys(when) {
					conds = append(conds, parent+": ["+strings.Join(when[parent], ", ")+"]")
				}
				return fmt.Errorf("%s %q: {%s} is a conditional parameter (when: {%s}): it has no value in the trials where it is inactive, which would all fail; "+
					"write {%s?} to leave the argument out in those trials (in a study file, a group such as [--%s, \"{%s?}\"] leaves out the flag too), "+
					"or read it from BOA_PARAMS (a JSON object of the trial's active parameters)",
					c.ref(i), a, p.text, strings.Join(conds, ", "), p.text, p.text, p.text)
			}
		}
	}
	return nil
}

// Validate checks a command before any trial runs: Args must name a
// program, every placeholder must be one of names, Env entries must be
// KEY=VALUE, neither may hold a NUL byte (exec would fail every trial),
// and durations must not be negative. Groups must be in order, disjoint
// and within Args, and each must hold an optional placeholder {x?} (else
// it is never dropped); the program cannot be optional. A key with '='
// cannot be told from its value here: build Env from a map with Env,
// which refuses it. Callers that have the space use ValidateSpace.
func Validate(c Command, names []string) error {
	if len(c.Args) == 0 {
		return fmt.Errorf("command is empty: give the program and its arguments")
	}
	if c.Args[0] == "" {
		return fmt.Errorf("command[0] is empty: it must name the program to run")
	}
	if err := c.checkGroups(); err != nil {
		return err
	}
	optional := make([]bool, len(c.Args))
	for i, a := range c.Args {
		pieces, err := parseArg(a)
		if err != nil {
			return fmt.Errorf("%s %q: %w", c.ref(i), a, err)
		}
		for _, p := range pieces {
			if p.param && !slices.Contains(names, p.text) {
				known := "none: the space is empty"
				if len(names) > 0 {
					known = strings.Join(names, ", ")
				}
				return fmt.Errorf("%s %q: unknown parameter {%s} (known: %s)", c.ref(i), a, p.text, known)
			}
			optional[i] = optional[i] || p.optional
		}
	}
	if optional[0] {
		return fmt.Errorf("command[0] %q: the program cannot be left out; an optional placeholder {x?} belongs in an argument", c.Args[0])
	}
	for _, g := range c.Groups {
		if !slices.Contains(optional[g.From:g.To], true) {
			k, _, _ := c.item(g.From)
			return fmt.Errorf("command[%d]: the group %q has no optional placeholder {x?}, so it is never left out; write its arguments in the command itself", k, c.Args[g.From:g.To])
		}
	}
	for i, a := range c.Args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("%s %q: contains a NUL byte, which no argument can carry", c.ref(i), a)
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
