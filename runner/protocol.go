package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Protocol keywords (DESIGN.md §2.3).
const (
	kwResult = "BOA_RESULT"
	kwMetric = "BOA_METRIC"
	kwReport = "BOA_REPORT"
)

// MaxMetricName is the longest metric name, in bytes, a BOA_METRIC line
// may give: the HTTP API takes no longer one, so boa run and boa worker
// drop the same lines.
const MaxMetricName = 256

// maxLine bounds the part of a line the parser looks at. Protocol lines are
// short; longer lines are ordinary output and are skipped without being
// held in memory.
const maxLine = 64 << 10

// parser accumulates what a command reports on stdout.
type parser struct {
	onReport func(Report)

	line int // '\n's read so far: the current line's number is line+1

	hasResult bool
	value     float64   // last valid BOA_RESULT's first value
	values    []float64 // all its values, one per objective
	names     []string  // their names when the line named them (BOA_RESULT acc=0.9 lat=3), else nil
	resultErr error     // set when the last BOA_RESULT line is bad
	near      string    // a line that looks like a result but is not one, for the hint

	metrics map[string]float64
	reports []Report
	dropped int    // bad BOA_METRIC/BOA_REPORT lines, skipped
	first   string // the first of them and why, for the warning
}

// read parses r line by line until EOF or a read error (a closed pipe).
// A line ends at '\n' or '\r': progress bars redraw their line with '\r',
// and a BOA_RESULT printed after one must not be hidden in it. Line
// numbers count '\n' only, as an editor numbers the log.
func (p *parser) read(r io.Reader) {
	buf := make([]byte, 32<<10)
	line := make([]byte, 0, maxLine) // the current line, up to maxLine bytes
	long := false                    // the current line is longer and was handled
	for {
		n, err := r.Read(buf)
		for data := buf[:n]; len(data) > 0; {
			end := bytes.IndexAny(data, "\r\n")
			part := data
			if end >= 0 {
				part = data[:end]
			}
			if !long && len(line)+len(part) > maxLine {
				p.longLine(append(line, part[:maxLine-len(line)]...))
				long = true
			} else if !long {
				line = append(line, part...)
			}
			if end < 0 {
				break
			}
			if !long {
				p.parseLine(string(line))
			}
			if data[end] == '\n' {
				p.line++
			}
			line, long = line[:0], false
			data = data[end+1:]
		}
		if err != nil {
			if !long && len(line) > 0 {
				p.parseLine(string(line))
			}
			return
		}
	}
}

// longLine handles a line longer than maxLine, given its first maxLine bytes.
func (p *parser) longLine(head []byte) {
	kw := strings.TrimLeft(string(head), " \t\r\v\f")
	if i := strings.IndexAny(kw, " \t\r\v\f"); i >= 0 {
		kw = kw[:i]
	}
	if kw == kwResult || kw == kwMetric || kw == kwReport {
		p.fail(kw, fmt.Errorf("line %d %s: longer than %d KiB", p.line+1, quote(string(head)), maxLine>>10))
	}
}

func (p *parser) parseLine(s string) {
	s = strings.TrimSpace(s)
	f := strings.Fields(s)
	if len(f) == 0 {
		return
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("line %d %s: %s", p.line+1, quote(s), fmt.Sprintf(format, args...))
	}
	switch f[0] {
	case kwResult:
		if len(f) < 2 {
			p.fail(kwResult, bad("want BOA_RESULT <value>, one value per objective, or BOA_RESULT <name>=<value> …"))
			return
		}
		values, names, err := parseResult(f[1:])
		if err != nil {
			p.fail(kwResult, bad("%v", err))
			return
		}
		p.hasResult, p.value, p.values, p.names, p.resultErr = true, values[0], values, names, nil
	case kwMetric:
		if len(f) != 3 {
			p.fail(kwMetric, bad("want BOA_METRIC <name> <value>"))
			return
		}
		if len(f[1]) > MaxMetricName || strings.ContainsRune(f[1], 0) {
			p.fail(kwMetric, bad("a metric name has at most %d bytes and no NUL character", MaxMetricName))
			return
		}
		// A metric may be NaN or infinite: it is a constraint's value
		// to judge (a NaN one makes the trial infeasible, with that
		// reason), not a number to learn from [spec constrained-autotinyml §1].
		v, err := parseNumber(f[2])
		if err != nil {
			p.fail(kwMetric, bad("%v", err))
			return
		}
		if p.metrics == nil {
			p.metrics = make(map[string]float64)
		}
		p.metrics[f[1]] = v
	case kwReport:
		if len(f) != 3 {
			p.fail(kwReport, bad("want BOA_REPORT <step> <value>"))
			return
		}
		step, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || step < 0 {
			// Steps count epochs from 0; storage refuses a negative one.
			p.fail(kwReport, bad("step %q is not an integer ≥ 0", f[1]))
			return
		}
		v, err := parseValue(f[2])
		if err != nil {
			p.fail(kwReport, bad("%v", err))
			return
		}
		r := Report{Step: step, Value: v}
		p.reports = append(p.reports, r)
		if p.onReport != nil {
			p.onReport(r)
		}
	default:
		if p.near == "" && strings.HasPrefix(f[0], kwResult) {
			p.near = fmt.Sprintf("line %d %s", p.line+1, quote(s))
		}
	}
}

// fail records a bad protocol line. A bad BOA_RESULT fails the trial
// unless a valid one follows. A bad BOA_METRIC or BOA_REPORT is only
// dropped: a diverged epoch printing a nan loss is routine, the protocol
// fails a trial for its result alone (DESIGN.md §2.3), and the caller
// learns of it through warnings.
func (p *parser) fail(kw string, err error) {
	if kw == kwResult {
		p.resultErr = err
		return
	}
	if p.dropped == 0 {
		p.first = err.Error()
	}
	p.dropped++
}

// warnings describes the dropped lines, for Result.Warnings.
func (p *parser) warnings() []string {
	switch p.dropped {
	case 0:
		return nil
	case 1:
		return []string{"dropped " + p.first}
	}
	return []string{fmt.Sprintf("dropped %d bad BOA_METRIC/BOA_REPORT lines, the first: %s", p.dropped, p.first)}
}

// err is the reason the output makes the trial FAILED, or nil.
func (p *parser) err() error {
	switch {
	case p.resultErr != nil:
		return p.resultErr
	case !p.hasResult && p.near != "":
		return fmt.Errorf("no BOA_RESULT line on stdout (%s is not one: write BOA_RESULT <value>)", p.near)
	case !p.hasResult:
		return errors.New("no BOA_RESULT line on stdout")
	}
	return nil
}

// parseResult reads the values of a BOA_RESULT line: all positional
// (0.93 3.2), or all named (accuracy=0.93 latency=3.2), each named once.
func parseResult(fields []string) (values []float64, names []string, err error) {
	named := strings.Contains(fields[0], "=")
	for _, f := range fields {
		name, v, isNamed := strings.Cut(f, "=")
		if isNamed != named {
			return nil, nil, errors.New("give every value a name (name=value) or none")
		}
		if !named {
			v = name
		} else {
			if name == "" || slices.Contains(names, name) {
				return nil, nil, fmt.Errorf("%q: each value needs a name of its own", f)
			}
			names = append(names, name)
		}
		x, err := parseValue(v)
		if err != nil {
			return nil, nil, err
		}
		values = append(values, x)
	}
	return values, names, nil
}

// parseValue reads a finite decimal float. strconv.ParseFloat also takes
// Go's literal syntax, hex floats (0x1p-2) and digit separators (1_000),
// which the protocol does not promise and other readers of the log (awk,
// a spreadsheet) take differently or not at all: such a value is more
// likely a bug in the command's printing than a meant number.
func parseValue(s string) (float64, error) {
	v, err := parseNumber(s)
	if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return 0, fmt.Errorf("%s is not a finite number", s)
	}
	return v, err
}

// parseNumber is parseValue that also takes nan and inf, as a metric's
// value.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if strings.ContainsAny(s, "xX_") { // no decimal, inf or nan spelling has them
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	return v, nil
}

// quote shortens a line for a reason string.
func quote(s string) string {
	const max = 80
	s = strings.TrimSpace(s)
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

// tail keeps the last bytes written to it, for the stderr excerpt of an
// exit-code failure, and notices BOA_RESULT lines sent to the wrong stream.
type tail struct {
	buf       []byte
	sawResult bool
}

const tailBytes = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	carry := len(t.buf)
	t.buf = append(t.buf, p...)
	if !t.sawResult {
		from := max(0, carry-len(kwResult))
		t.sawResult = bytes.Contains(t.buf[from:], []byte(kwResult))
	}
	if len(t.buf) > tailBytes {
		// Not from half a character, which lines would show as \x escapes.
		from := len(t.buf) - tailBytes
		for i := 0; i < utf8.UTFMax && !utf8.RuneStart(t.buf[from]); i++ {
			from++
		}
		t.buf = append(t.buf[:0], t.buf[from:]...)
	}
	return len(p), nil
}

// lines returns the last n non-blank lines, joined on one line so the reason
// fits a row of `boa trials`. '\r' ends a line as in the parser, so that a
// progress bar shows its last state rather than its first. The lines are
// escaped (Printable): the reason is stored so, and no command that prints
// it can pass an ANSI sequence or a binary byte of the program's output to
// the terminal. The raw output is in the trial's log files
// (objective.logs), when kept.
func (t *tail) lines(n int) string {
	const maxLen = 160
	all := strings.FieldsFunc(string(t.buf), func(r rune) bool { return r == '\n' || r == '\r' })
	var keep []string
	for i := len(all) - 1; i >= 0 && len(keep) < n; i-- {
		l := strings.TrimSpace(all[i])
		if l == "" {
			continue
		}
		if l, cut := printableCut(l, maxLen); cut {
			keep = append(keep, l+"…")
		} else {
			keep = append(keep, l)
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return strings.Join(keep, " | ")
}
