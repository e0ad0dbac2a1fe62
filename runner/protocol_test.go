package runner

import (
	"reflect"
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
