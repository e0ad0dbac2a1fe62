package runner

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/space"
)

func TestSubstitute(t *testing.T) {
	params := map[string]any{
		"int": 3, "int64": int64(-12), "float": 0.1, "whole": 3.0, "tiny": 1e-5, "big": 1e21,
		"float32": float32(0.1), "true": true, "false": false, "str": "rbf kernel", "empty": "",
		"braces": "{x}",
	}
	tests := []struct {
		args    []string
		want    []string
		wantErr string
	}{
		{args: []string{"train", "--n={int}", "{int64}"}, want: []string{"train", "--n=3", "-12"}},
		{args: []string{"{float}", "{whole}", "{tiny}", "{big}", "{float32}"}, want: []string{"0.1", "3", "1e-05", "1e+21", "0.1"}},
		{args: []string{"{true},{false}", "{str}", "[{empty}]"}, want: []string{"true,false", "rbf kernel", "[]"}},
		{args: []string{"{int}{float}x{int}"}, want: []string{"30.1x3"}},
		{args: []string{"{{int}}", "{{{int}}}", "a}}b{{c", "{braces}"}, want: []string{"{int}", "{3}", "a}b{c", "{x}"}},
		{args: []string{"no placeholders"}, want: []string{"no placeholders"}},
		{args: []string{}, want: []string{}},

		{args: []string{"ok", "--x={nope}"}, wantErr: `command[1] "--x={nope}": parameter {nope} has no value in this trial (known: big, braces,`},
		{args: []string{"{int"}, wantErr: "unclosed { at byte 0"},
		{args: []string{"{a{int}}"}, wantErr: "unclosed { at byte 0"},
		{args: []string{"x}"}, wantErr: "unmatched } at byte 1 (write }} for a literal brace)"},
		{args: []string{"{}"}, wantErr: "empty placeholder {}"},
		{args: []string{"awk", "{print $1}"}, wantErr: "parameter {print $1} has no value"},
	}
	for _, tt := range tests {
		got, err := Substitute(tt.args, params)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Substitute(%q) error %v; want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Substitute(%q) = %q, %v; want %q", tt.args, got, err, tt.want)
		}
	}

	// Without the space, whole numbers below 1e21 are digits, whatever
	// their Go type: the ordinal value 1000000 was 1e+06, which int()
	// refuses; an int64 keeps its digits beyond 2⁵³.
	params = map[string]any{
		"million": 1e6, "ordinal": 2.5e6, "e20": 1e20, "e21": 1e21, "neg": -3e7, "half": 1e6 + 0.5, "tiny": 1e-7,
		"lr": 0.001, "int": 1000000, "bigint": 9007199254740993,
	}
	names := sortedKeys(params)
	args := make([]string, len(names))
	for i, n := range names {
		args[i] = "{" + n + "}"
	}
	local, err := Substitute(args, params)
	want := map[string]string{"million": "1000000", "ordinal": "2500000", "e20": "100000000000000000000", "e21": "1e+21",
		"neg": "-30000000", "half": "1.0000005e+06", "tiny": "1e-07", "lr": "0.001", "int": "1000000", "bigint": "9007199254740993"}
	for i, n := range names {
		if err != nil || local[i] != want[n] {
			t.Errorf("Substitute {%s} = %q, %v; want %q", n, local[i], err, want[n])
		}
	}

	// A json.Number is written as it is: 1.0 stays a float.
	if got, err := Substitute([]string{"{a}", "{b}", "{c}"}, map[string]any{"a": json.Number("1.0"), "b": json.Number("1"), "c": json.Number("1e-05")}); err != nil || !reflect.DeepEqual(got, []string{"1.0", "1", "1e-05"}) {
		t.Errorf("Substitute of json.Numbers = %q, %v", got, err)
	}

	// A nil value is an inactive conditional parameter: no value.
	if _, err := Substitute([]string{"{d}"}, map[string]any{"d": nil}); err == nil {
		t.Error("Substitute accepted a nil value")
	}
}

// TestSubstituteByKind: through the space (space.Space.Export, as boa run
// and boa worker pass a trial's params), a Float at a whole value is
// written as a float, an integer ordinal with digits; and a remote worker,
// whose params are json.Numbers from the API (client.Trial), passes the
// command the same arguments as boa run, also for a trial an older server
// sends with a Float stored as 1.
func TestSubstituteByKind(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "frac", Kind: space.Float, Low: 0.5, High: 1},
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-7, High: 1e22, Log: true},
		space.Param{Name: "steps", Kind: space.Ordinal, Values: []float64{1000, 1e6, 2.5e6}},
		space.Param{Name: "scale", Kind: space.Ordinal, Values: []float64{0.5, 1, 2}},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 1e15},
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "2"}},
		space.Param{Name: "on", Kind: space.Bool},
	)
	args := []string{"--frac={frac}", "{lr}", "{steps}", "{scale}", "{n}", "{kernel}", "{on}"}
	for _, tt := range []struct {
		params space.Assignment
		want   []string
	}{
		{space.Assignment{"frac": 1.0, "lr": 1e6, "steps": 1e6, "scale": 1.0, "n": 999999999999999, "kernel": "2", "on": true},
			[]string{"--frac=1.0", "1000000.0", "1000000", "1.0", "999999999999999", "2", "true"}},
		{space.Assignment{"frac": 0.5, "lr": 1e-7, "steps": 2.5e6, "scale": 0.5, "n": 1, "kernel": "rbf", "on": false},
			[]string{"--frac=0.5", "1e-07", "2500000", "0.5", "1", "rbf", "false"}},
		{space.Assignment{"frac": 0.75, "lr": 1e21, "steps": 1000.0, "scale": 2.0, "n": 3, "kernel": "rbf", "on": false},
			[]string{"--frac=0.75", "1e+21", "1000", "2.0", "3", "rbf", "false"}},
	} {
		local, err := Substitute(args, sp.Export(tt.params))
		if err != nil || !reflect.DeepEqual(local, tt.want) {
			t.Errorf("Substitute(%v) = %q, %v; want %q", tt.params, local, err, tt.want)
		}
		// The API's params (MarshalParams), and an older server's
		// (encoding/json: 1 for a Float at 1), read by the client.
		now, _ := sp.MarshalParams(tt.params)
		old, _ := json.Marshal(tt.params)
		for _, js := range [][]byte{now, old} {
			dec := json.NewDecoder(strings.NewReader(string(js)))
			dec.UseNumber()
			var remote map[string]any
			if err := dec.Decode(&remote); err != nil {
				t.Fatal(err)
			}
			if got, err := Substitute(args, sp.Export(remote)); err != nil || !reflect.DeepEqual(got, local) {
				t.Errorf("Substitute of the API's params %s = %q, %v; want %q as for boa run", js, got, err, local)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	names := []string{"C", "kernel", "degree"}
	tests := []struct {
		c       Command
		names   []string
		wantErr string
	}{
		{c: Command{Args: []string{"python3", "train.py", "--C", "{C}", "--kernel={kernel}", "{{literal}}"}, Env: []string{"A=1", "B="}, Timeout: time.Minute}},
		{c: Command{Args: []string{"true"}}, names: []string{}},
		{c: Command{}, wantErr: "command is empty"},
		{c: Command{Args: []string{"", "x"}}, wantErr: "command[0] is empty"},
		{c: Command{Args: []string{"train", "--gamma={gamma}"}},
			wantErr: `command[1] "--gamma={gamma}": unknown parameter {gamma} (known: C, kernel, degree)`},
		{c: Command{Args: []string{"train", "{x}"}}, names: []string{}, wantErr: "unknown parameter {x} (known: none: the space is empty)"},
		{c: Command{Args: []string{"sh", "-c", "awk '{print $1}'"}}, wantErr: `command[2] "awk '{print $1}'": unknown parameter {print $1}`},
		{c: Command{Args: []string{"train", "{C"}}, wantErr: "command[1] \"{C\": unclosed {"},
		{c: Command{Args: []string{"true"}, Env: []string{"NOVALUE"}}, wantErr: `env[0] "NOVALUE": want KEY=VALUE`},
		{c: Command{Args: []string{"true"}, Env: []string{"=x"}}, wantErr: "want KEY=VALUE"},
		{c: Command{Args: []string{"true"}, Env: []string{"A=x\x00y"}}, wantErr: `env[0] "A=x\x00y": contains a NUL byte`},
		{c: Command{Args: []string{"true"}, Env: []string{"A\x00B=x"}}, wantErr: "contains a NUL byte"},
		{c: Command{Args: []string{"echo", "a\x00b"}}, wantErr: `command[1] "a\x00b": contains a NUL byte`},
		{c: Command{Args: []string{"true"}, Timeout: -time.Second}, wantErr: "timeout -1s is negative"},
		{c: Command{Args: []string{"true"}, Grace: -time.Second}, wantErr: "grace period -1s is negative"},
	}
	for _, tt := range tests {
		n := names
		if tt.names != nil {
			n = tt.names
		}
		err := Validate(tt.c, n)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("Validate(%q) = %v; want nil", tt.c.Args, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("Validate(%q) = %v; want %q", tt.c.Args, err, tt.wantErr)
		}
	}
}

func TestEnv(t *testing.T) {
	got, err := Env(map[string]string{"B": "x=y", "A": "", "OMP_NUM_THREADS": "1"})
	if want := []string{"A=", "B=x=y", "OMP_NUM_THREADS=1"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Env = %q, %v; want %q", got, err, want)
	}
	if got, err := Env(nil); err != nil || len(got) != 0 {
		t.Errorf("Env(nil) = %q, %v; want none", got, err)
	}
	for _, tt := range []struct {
		m       map[string]string
		wantErr string
	}{
		{map[string]string{"A=B": "x"}, `env: variable name "A=B" contains '='`},
		{map[string]string{"": "x"}, "env: empty variable name"},
		{map[string]string{"A\x00": "x"}, `env: variable name "A\x00" contains a NUL byte`},
		{map[string]string{"A": "x\x00"}, "env: the value of A contains a NUL byte"},
	} {
		if _, err := Env(tt.m); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Env(%q) = %v; want %q", tt.m, err, tt.wantErr)
		}
	}
}

func TestValidateSpace(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly"}},
		space.Param{Name: "degree", Kind: space.Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		space.Param{Name: "C", Kind: space.Float, Low: 1e-3, High: 1e3, Log: true},
	)
	for _, tt := range []struct {
		args    []string
		wantErr string
	}{
		{args: []string{"train", "--kernel={kernel}", "--C", "{C}", "{{degree}}"}},
		{args: []string{"train", "--degree={degree}"},
			wantErr: `command[1] "--degree={degree}": {degree} is a conditional parameter (when: {kernel: [poly]}): it has no value in the trials where it is inactive, which would all fail; write {degree?} to leave the argument out in those trials`},
		{args: []string{"train", "{gamma}"}, wantErr: "unknown parameter {gamma} (known: kernel, degree, C)"},
		{args: []string{"train", "{C"}, wantErr: "unclosed {"},
	} {
		err := ValidateSpace(Command{Args: tt.args}, sp)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("ValidateSpace(%q) = %v; want %q", tt.args, err, tt.wantErr)
		}
	}
}

// An optional placeholder {x?} without a value (its parameter inactive:
// absent or nil) leaves out its argument, or the whole group it is in; a
// plain {x} without a value stays an error naming it.
func TestArgvOptional(t *testing.T) {
	c := Command{
		Args:   []string{"train", "--kernel={kernel}", "--degree={degree?}", "--degree", "{degree?}", "-v{{{degree?}}}", "--coef", "{coef?}", "x{degree?}", "last"},
		Groups: []Group{{3, 5}, {6, 9}},
	}
	tests := []struct {
		params  map[string]any
		want    []string
		wantErr string
	}{
		{params: map[string]any{"kernel": "poly", "degree": 3, "coef": json.Number("1.0")},
			want: []string{"train", "--kernel=poly", "--degree=3", "--degree", "3", "-v{3}", "--coef", "1.0", "x3", "last"}},
		{params: map[string]any{"kernel": "rbf"}, want: []string{"train", "--kernel=rbf", "last"}},
		{params: map[string]any{"kernel": "rbf", "degree": nil, "coef": 0.5}, want: []string{"train", "--kernel=rbf", "last"}},
		{params: map[string]any{"kernel": "poly", "degree": 2}, want: []string{"train", "--kernel=poly", "--degree=2", "--degree", "2", "-v{2}", "last"}},
		{params: map[string]any{"degree": 2}, wantErr: `command[1] "--kernel={kernel}": parameter {kernel} has no value in this trial (known: degree)`},
	}
	for _, tt := range tests {
		got, err := c.Argv(tt.params)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Argv(%v) error %v; want %q", tt.params, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Argv(%v) = %q, %v; want %q", tt.params, got, err, tt.want)
		}
	}
	// Errors name an argument as the study file writes the command, where
	// a group is one item: the plain {gamma} is the second of item 3.
	c = Command{Args: []string{"train", "--degree", "{degree?}", "--gamma", "{gamma}"}, Groups: []Group{{1, 3}, {3, 5}}}
	if _, err := c.Argv(map[string]any{"degree": 2}); err == nil || !strings.Contains(err.Error(), `command[2][1] "{gamma}": parameter {gamma} has no value`) {
		t.Errorf("Argv error %v; want it to name command[2][1]", err)
	}
	if got, err := Substitute([]string{"a", "{d?}", "b"}, nil); err != nil || !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Substitute without params = %q, %v", got, err)
	}
}

func TestValidateOptional(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly"}},
		space.Param{Name: "degree", Kind: space.Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		space.Param{Name: "C", Kind: space.Float, Low: 1e-3, High: 1e3, Log: true},
	)
	for _, tt := range []struct {
		c       Command
		wantErr string
	}{
		{c: Command{Args: []string{"train", "--degree={degree?}", "{C?}"}}},
		{c: Command{Args: []string{"train", "--C", "{C}", "--degree", "{degree?}"}, Groups: []Group{{3, 5}}}},
		{c: Command{Args: []string{"train", "{gamma?}"}}, wantErr: `command[1] "{gamma?}": unknown parameter {gamma}`},
		{c: Command{Args: []string{"train", "{?}"}}, wantErr: "empty placeholder {?}"},
		{c: Command{Args: []string{"{C?}"}}, wantErr: "the program cannot be left out"},
		{c: Command{Args: []string{"train", "--C", "{C}"}, Groups: []Group{{1, 3}}}, wantErr: `command[1]: the group ["--C" "{C}"] has no optional placeholder`},
		{c: Command{Args: []string{"train", "{C?}"}, Groups: []Group{{0, 2}}}, wantErr: "the program, command[0], cannot be in a group"},
		{c: Command{Args: []string{"train", "{C?}"}, Groups: []Group{{1, 3}}}, wantErr: "reaches past the 2 arguments"},
		{c: Command{Args: []string{"train", "{C?}"}, Groups: []Group{{1, 1}}}, wantErr: "is empty"},
		{c: Command{Args: []string{"train", "{C?}", "{degree?}", "x"}, Groups: []Group{{1, 3}, {2, 4}}}, wantErr: "overlaps"},
		{c: Command{Args: []string{"train", "--degree", "{degree}"}, Groups: []Group{{1, 3}}}, wantErr: "has no optional placeholder"},
		{c: Command{Args: []string{"train", "--kernel", "{kernel?}", "--degree", "{degree}", "{kernel?}"}, Groups: []Group{{1, 3}, {3, 6}}},
			wantErr: `command[2][1] "{degree}": {degree} is a conditional parameter`},
	} {
		err := ValidateSpace(tt.c, sp)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("ValidateSpace(%q, %v) = %v; want %q", tt.c.Args, tt.c.Groups, err, tt.wantErr)
		}
	}
}
