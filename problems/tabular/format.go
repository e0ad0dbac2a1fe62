package tabular

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FormatError reports a problem with a table file. Line is 1-based (the
// header is line 1) and 0 when the problem concerns the whole file; Column
// is the 1-based field number and 0 when the problem concerns a whole line.
type FormatError struct {
	Path   string
	Line   int
	Column int
	Name   string // the column's header name, when known
	Msg    string
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%s)", e.Name)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// reader reads a table file record by record and builds errors that name
// the file, the line and the column.
type reader struct {
	path   string
	cr     *csv.Reader
	header []string
	rec    []string
	line   int // line of the current record

	size      int64 // file size in bytes, 0 if unknown
	headerEnd int64 // offset after the header
}

func newReader(path string, r io.Reader, size int64) *reader {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // checked by next, with a message that names the header
	return &reader{path: path, cr: cr, size: size}
}

// estimateRows guesses the number of data rows from the length of the first
// one, after it has been read, to size the loaders' buffers once.
func (r *reader) estimateRows() int {
	n := r.cr.InputOffset() - r.headerEnd
	if n <= 0 || r.size <= r.headerEnd {
		return 0
	}
	return int(min((r.size-r.headerEnd)/n+16, 1<<22))
}

// errf returns a FormatError at the current line; col is a 0-based field
// index, or -1 for the whole line.
func (r *reader) errf(col int, format string, args ...any) error {
	e := &FormatError{Path: r.path, Line: r.line, Msg: fmt.Sprintf(format, args...)}
	if col >= 0 {
		e.Column = col + 1
		if col < len(r.header) {
			e.Name = r.header[col]
		}
	}
	return e
}

// fileErr returns a FormatError about the whole file.
func (r *reader) fileErr(format string, args ...any) error {
	return &FormatError{Path: r.path, Msg: fmt.Sprintf(format, args...)}
}

// next reads the next record into r.rec; it returns io.EOF at the end.
func (r *reader) next() error {
	rec, err := r.cr.Read()
	if err != nil {
		return r.readErr(err)
	}
	r.rec = rec
	r.line, _ = r.cr.FieldPos(0)
	if r.header != nil && len(rec) != len(r.header) {
		return r.errf(-1, "%d fields, but the header has %d", len(rec), len(r.header))
	}
	return nil
}

// readErr turns a read error into a FormatError naming the line, keeping
// io.EOF as it is.
func (r *reader) readErr(err error) error {
	if err == io.EOF {
		return io.EOF
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &FormatError{Path: r.path, Line: pe.Line, Msg: fmt.Sprintf("malformed CSV at character %d: %v", pe.Column, pe.Err)}
	}
	return fmt.Errorf("%s: %w", r.path, err)
}

// layout says which columns a kind of table has: named columns and a
// numbered family of per-seed columns prefix0, prefix1, ...
type layout struct {
	required   []string
	optional   []string
	seedPrefix string
}

// want describes the documented header, for messages.
func (l layout) want() string {
	names := slices.Clone(l.required)
	names = append(names, l.seedPrefix+"0", l.seedPrefix+"1", "...")
	if len(l.optional) > 0 {
		names = append(names, "optionally "+strings.Join(l.optional, ", "))
	}
	return strings.Join(names, ", ")
}

// columns maps the roles of a layout to field indices.
type columns struct {
	named  map[string]int
	seeds  []int // field index of seed k
	prefix string
}

// readHeader reads line 1 and matches it against l. Column order is free;
// every required column and seed columns 0..n−1 (n ≥ 1) must be present
// once, and nothing else.
func (r *reader) readHeader(l layout) (columns, error) {
	err := r.next()
	if err == io.EOF {
		return columns{}, r.fileErr("the file is empty; the first line must be the header: %s", l.want())
	}
	if err != nil {
		return columns{}, err
	}
	r.header = slices.Clone(r.rec)
	r.headerEnd = r.cr.InputOffset()
	if len(r.header) > 0 {
		r.header[0] = strings.TrimPrefix(r.header[0], "\ufeff") // a byte-order mark from spreadsheet exports
	}
	c := columns{named: map[string]int{}, prefix: l.seedPrefix}
	seedAt := map[int]int{}
	var dup, unexpected []string
	known := func(name string) bool {
		return slices.Contains(l.required, name) || slices.Contains(l.optional, name)
	}
	for i, h := range r.header {
		h = strings.TrimSpace(h)
		r.header[i] = h
		if k, ok := seedIndex(h, l.seedPrefix); ok {
			if _, seen := seedAt[k]; seen {
				dup = append(dup, h)
			}
			seedAt[k] = i
			continue
		}
		if !known(h) {
			unexpected = append(unexpected, strconv.Quote(h))
			continue
		}
		if _, seen := c.named[h]; seen {
			dup = append(dup, h)
		}
		c.named[h] = i
	}
	var missing []string
	for _, name := range l.required {
		if _, ok := c.named[name]; !ok {
			missing = append(missing, name)
		}
	}
	// The seed columns must be numbered 0..n−1. Only the first few gaps are
	// named and the rest counted: a header numbered by seed values (seed665,
	// seed1319) or with a huge number would otherwise make a message of
	// thousands of names, or exhaust memory building it.
	n, top := len(seedAt), -1
	for k := range seedAt {
		top = max(top, k)
	}
	if n == 0 {
		missing = append(missing, l.seedPrefix+"0")
	}
	if top >= n {
		const named = 3
		gaps := top - n + 1 // indices below top that have no column
		listed := 0
		for k := 0; listed < named && k < top; k++ {
			if _, ok := seedAt[k]; !ok {
				missing = append(missing, l.seedPrefix+strconv.Itoa(k))
				listed++
			}
		}
		if gaps > named {
			missing[len(missing)-1] += fmt.Sprintf(" and %d more (seed columns are numbered %s0, %s1, ... without gaps)",
				gaps-named, l.seedPrefix, l.seedPrefix)
		}
	} else {
		for k := range n {
			c.seeds = append(c.seeds, seedAt[k])
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing columns "+strings.Join(missing, ", "))
	}
	if len(unexpected) > 0 {
		parts = append(parts, "unexpected columns "+strings.Join(unexpected, ", "))
	}
	if len(dup) > 0 {
		parts = append(parts, "repeated columns "+strings.Join(dup, ", "))
	}
	if len(parts) == 0 {
		return c, nil
	}
	msg := "header: " + strings.Join(parts, "; ") + "; want " + l.want()
	if len(c.named) == 0 && len(seedAt) == 0 && slices.ContainsFunc(r.header, isNumber) {
		msg = "the first line must be the header, not a data row; " + msg
	}
	return columns{}, r.errf(-1, "%s", msg)
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// seedIndex recognises prefix0, prefix1, ... (no leading zeros).
func seedIndex(h, prefix string) (int, bool) {
	d, ok := strings.CutPrefix(h, prefix)
	if !ok || d == "" || (len(d) > 1 && d[0] == '0') {
		return 0, false
	}
	k, err := strconv.Atoi(d)
	if err != nil || k < 0 || d[0] == '+' || d[0] == '-' {
		return 0, false
	}
	return k, true
}

// float parses field col of the current record as a finite number in
// [lo, hi]; an empty field gives ok = false when empty is allowed.
func (r *reader) float(col int, lo, hi float64, what string, allowEmpty bool) (v float64, ok bool, err error) {
	s := strings.TrimSpace(r.rec[col])
	if s == "" {
		if allowEmpty {
			return 0, false, nil
		}
		return 0, false, r.errf(col, "empty; want %s", what)
	}
	v, perr := strconv.ParseFloat(s, 64)
	switch {
	case perr != nil:
		return 0, false, r.errf(col, "cannot read %q as a number; want %s", s, what)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, false, r.errf(col, "%s is not a finite number; want %s", s, what)
	case v < lo || v > hi:
		return 0, false, r.errf(col, "%s is out of range; want %s", s, what)
	}
	return v, true, nil
}

// seeds reads the per-seed columns of the current record into dst
// (objective values, NaN where a seed is missing) via obj, and returns how
// many are present. A row needs at least one.
func (r *reader) seeds(c columns, lo, hi float64, what string, obj func(float64) float64, dst []float64) (int, error) {
	n := 0
	for k, col := range c.seeds {
		v, ok, err := r.float(col, lo, hi, what, true)
		if err != nil {
			return 0, err
		}
		dst[k] = math.NaN()
		if ok {
			dst[k] = obj(v)
			n++
		}
	}
	if n == 0 {
		return 0, r.errf(-1, "no seed values (columns %s0..%d are all empty); a row needs at least one", c.prefix, len(c.seeds)-1)
	}
	return n, nil
}
