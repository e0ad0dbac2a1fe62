package runner

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// FuzzProtocol feeds arbitrary stdout to the result-protocol parser. It
// must not panic; a result it accepts, and every metric and report it
// keeps, is finite; and how the output is split into reads changes
// nothing (a pipe hands over whatever the command flushed).
func FuzzProtocol(f *testing.F) {
	for _, s := range []string{
		"BOA_RESULT 0.25\n",
		"epoch 1 loss 0.5\nBOA_REPORT 0 0.5\nBOA_REPORT 1 0.4\nBOA_METRIC flash_kb 120\nBOA_RESULT -0.93\n",
		"BOA_RESULT 1\nBOA_RESULT nan\n",
		"BOA_RESULT nan\nBOA_RESULT 2\n",
		"BOA_RESULT: 0.5\n",
		"BOA_RESULT 1e400\n",
		"BOA_RESULT 0x1p-2\n",
		"BOA_METRIC a b c\nBOA_REPORT -1 2\nBOA_REPORT 9223372036854775808 1\n",
		"progress 10%\rprogress 100%\rBOA_RESULT 3\r\n",
		"  \tBOA_RESULT\t+1E3  \r\n",
		"BOA_METRIC m\x00 1\nBOA_RESULT 1",
		"BOA_RESULT 5.\nBOA_METRIC é 1_0\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole := &parser{}
		whole.read(bytes.NewReader(data))
		bytewise := &parser{}
		bytewise.read(iotest.OneByteReader(bytes.NewReader(data)))
		if a, b := summary(whole), summary(bytewise); !reflect.DeepEqual(a, b) {
			t.Fatalf("read at once and a byte at a time differ:\n%#v\n%#v", a, b)
		}
		if whole.err() == nil && (!whole.hasResult || math.IsNaN(whole.value) || math.IsInf(whole.value, 0)) {
			t.Fatalf("accepted result %v (hasResult %v)", whole.value, whole.hasResult)
		}
		for name := range whole.metrics {
			if name == "" || len(name) > MaxMetricName || strings.ContainsRune(name, 0) {
				t.Fatalf("kept metric %q = %v", name, whole.metrics[name])
			}
		}
		for _, r := range whole.reports {
			if r.Step < 0 || math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
				t.Fatalf("kept report %+v", r)
			}
		}
		if e := whole.err(); e != nil && !utf8.ValidString(e.Error()) && utf8.Valid(data) {
			t.Fatalf("reason %q is not UTF-8 though the output is", e)
		}
	})
}

// summary is what the parser hands on to a trial.
func summary(p *parser) []any {
	var reason string
	if err := p.err(); err != nil {
		reason = err.Error()
	}
	// Metrics as text: a NaN one (a constraint's value) equals no other.
	return []any{p.hasResult, p.value, reason, fmt.Sprint(p.metrics), p.reports, p.warnings()}
}

// FuzzSubstitute checks the {name} template of command arguments: no
// panic; text without braces is unchanged; text with its braces doubled
// comes back as it was; a value is inserted as it is, never read as a
// template; and Validate refuses exactly the arguments Substitute does.
func FuzzSubstitute(f *testing.F) {
	for _, s := range [][2]string{
		{"train.py", "0.1"},
		{"--C={C}", "1000"},
		{"{int}{float}x{int}", "3"},
		{"{{int}}", "{x}"},
		{"{{{int}}}", "}}"},
		{"a}}b{{c", ""},
		{"{int", "1"},
		{"{a{int}}", "1"},
		{"x}", "1"},
		{"{}", "1"},
		{"awk '{print $1}'", "é"},
		{"--kernel={kernel} --lr={lr}", "rbf kernel"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, arg, value string) {
		if !strings.ContainsAny(arg, "{}") {
			got, err := Substitute([]string{arg}, nil)
			if err != nil || got[0] != arg {
				t.Fatalf("Substitute(%q) = %q, %v; want it unchanged", arg, got, err)
			}
		}
		escaped := strings.NewReplacer("{", "{{", "}", "}}").Replace(arg)
		if got, err := Substitute([]string{escaped}, nil); err != nil || got[0] != arg {
			t.Fatalf("Substitute(%q) = %q, %v; want %q", escaped, got, err, arg)
		}
		pieces, perr := parseArg(arg)
		params := map[string]any{}
		var names []string
		var want strings.Builder
		for _, p := range pieces {
			if p.param {
				params[p.text] = value
				names = append(names, p.text)
				want.WriteString(value)
			} else {
				want.WriteString(p.text)
			}
		}
		got, err := Substitute([]string{arg}, params)
		if (err != nil) != (perr != nil) {
			t.Fatalf("Substitute(%q): %v, parseArg: %v", arg, err, perr)
		}
		if err == nil && got[0] != want.String() {
			t.Fatalf("Substitute(%q) with every placeholder %q = %q; want %q", arg, value, got[0], want.String())
		}
		verr := Validate(Command{Args: []string{"prog", arg}}, names)
		if perr != nil && verr == nil || perr == nil && verr != nil && !strings.ContainsRune(arg, 0) {
			t.Fatalf("Validate(%q): %v, parseArg: %v", arg, verr, perr)
		}
	})
}
