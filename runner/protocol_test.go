package runner

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// Lines longer than the parser's window are skipped without being held in
// memory, unless they claim to be protocol lines.
func TestParserLongLines(t *testing.T) {
	pad := strings.Repeat(" ", 2*maxLine)
	tests := []struct {
		out     string
		value   float64
		wantErr string
		warning string // substring of the one warning
	}{
		{out: strings.Repeat("y", 3*maxLine) + "\nBOA_RESULT 2\n", value: 2},
		{out: "BOA_RESULT 2\nlog: " + strings.Repeat("BOA_RESULT 5 ", maxLine), value: 2}, // a long ordinary line
		{out: "BOA_RESULT 2\nBOA_RESULT 3" + pad + "\n", wantErr: `line 2 "BOA_RESULT 3": longer than 64 KiB`, value: 2},
		{out: "\tBOA_METRIC a 1" + pad + "\nBOA_RESULT 1\n", warning: `dropped line 1 "BOA_METRIC a 1": longer than 64 KiB`, value: 1},
		{out: strings.Repeat("z", maxLine-1) + "\nBOA_RESULT 4", value: 4}, // exactly fills the buffer with its newline
	}
	for i, tt := range tests {
		p := &parser{}
		p.read(strings.NewReader(tt.out))
		err := p.err()
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%d: error %v; want %q", i, err, tt.wantErr)
		}
		if p.value != tt.value {
			t.Errorf("%d: value %v; want %v", i, p.value, tt.value)
		}
		if w := p.warnings(); tt.warning == "" && len(w) > 0 || tt.warning != "" && (len(w) != 1 || !strings.Contains(w[0], tt.warning)) {
			t.Errorf("%d: warnings %q; want %q", i, w, tt.warning)
		}
	}
}

// '\r' ends a line wherever the reads split the output, also after a long
// line.
func TestParserCarriageReturn(t *testing.T) {
	out := "a\r\n" + strings.Repeat("x", 2*maxLine) + "\rBOA_RESULT 3\r\r" + strings.Repeat("y", 2*maxLine) + "\rBOA_METRIC m 2\n\rBOA_REPORT 1 nan\r\n"
	p := &parser{}
	p.read(iotest.OneByteReader(strings.NewReader(out)))
	if err := p.err(); err != nil || p.value != 3 || p.metrics["m"] != 2 {
		t.Fatalf("got %v, %v, %v; want 3, m=2, nil", p.value, p.metrics, err)
	}
	want := []string{`dropped line 3 "BOA_REPORT 1 nan": nan is not a finite number`}
	if w := p.warnings(); !reflect.DeepEqual(w, want) {
		t.Errorf("warnings %q; want %q", w, want)
	}
}

// Values are decimal floats (runner/doc.go), not Go literals.
func TestParseValue(t *testing.T) {
	for s, want := range map[string]float64{"1": 1, "-3e-2": -0.03, ".5": 0.5, "5.": 5, "+1E3": 1000, "1e-400": 0} {
		if v, err := parseValue(s); err != nil || v != want {
			t.Errorf("parseValue(%q) = %v, %v; want %v", s, v, err, want)
		}
	}
	for s, wantErr := range map[string]string{
		"0x1p-2":   `"0x1p-2" is not a decimal number`,
		"-0X1.8P1": `"-0X1.8P1" is not a decimal number`,
		"0x10":     `"0x10" is not a number`, // not even to ParseFloat (a hex float needs its p exponent)
		"1_000":    `"1_000" is not a decimal number`,
		"1e400":    "1e400 is not a finite number",
		"Infinity": "Infinity is not a finite number",
		"nan":      "nan is not a finite number",
		"1,5":      `"1,5" is not a number`,
		"x":        `"x" is not a number`,
		"0x1p9999": `"0x1p9999" is not a decimal number`,
	} {
		if v, err := parseValue(s); err == nil || err.Error() != wantErr {
			t.Errorf("parseValue(%q) = %v, %v; want error %q", s, v, err, wantErr)
		}
	}
}

func TestTail(t *testing.T) {
	var tl tail
	tl.Write([]byte("noise\n" + strings.Repeat("a", 10000) + "\n\n  first \nsec"))
	tl.Write([]byte("ond\n" + strings.Repeat("é", 200) + "\n  \n 1/2\r 2/2\r\n"))
	got := tl.lines(3)
	want := strings.Repeat("é", 80) + "… | 1/2 | 2/2"
	if got != want {
		t.Errorf("lines = %q; want %q", got, want)
	}
	if tl.sawResult {
		t.Error("sawResult without a BOA_RESULT")
	}
	tl.Write([]byte("xxBOA_RE"))
	tl.Write([]byte("SULT 1\n"))
	if !tl.sawResult {
		t.Error("BOA_RESULT split across writes not noticed")
	}
}

// TestObjectives: a BOA_RESULT line's values reach the study's objectives
// by position or by name, and a line that does not fit them says what
// the study wants.
func TestObjectives(t *testing.T) {
	names := []string{"accuracy", "latency"}
	parse := func(line string) Result {
		var p parser
		p.read(strings.NewReader(line + "\n"))
		if err := p.err(); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return Result{Values: p.values, Names: p.names}
	}
	for line, want := range map[string][]float64{
		"BOA_RESULT 0.9 3.5":                  {0.9, 3.5},
		"BOA_RESULT latency=3.5 accuracy=0.9": {0.9, 3.5},
	} {
		got, err := parse(line).Objectives(names)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v, %v; want %v", line, got, err, want)
		}
	}
	for line, want := range map[string]string{
		"BOA_RESULT 0.9":                        "printed 1 value(s) on its BOA_RESULT line, but the study has 2 objective(s) (accuracy, latency): print BOA_RESULT <accuracy> <latency> or BOA_RESULT accuracy=<value> latency=<value>",
		"BOA_RESULT 0.9 1 2":                    "printed 3 value(s)",
		"BOA_RESULT accuracy=0.9":               "names accuracy but not objective latency",
		"BOA_RESULT accuracy=0.9 latency=1 x=2": "names accuracy, latency, x, but the study's objectives are accuracy, latency",
	} {
		if _, err := parse(line).Objectives(names); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", line, err, want)
		}
	}
	if got, err := parse("BOA_RESULT 2.5").Objectives([]string{"value"}); err != nil || !slices.Equal(got, []float64{2.5}) {
		t.Errorf("one objective: %v, %v", got, err)
	}
}
