package config

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The YAML decoder's syntax errors name the rule broken, not the mistake
// made: a tab in the indentation is "found character that cannot start
// any token", and `storage: memory:` (a value ending in ':', which YAML
// reads as the key of a mapping nested on the same line) is "mapping
// values are not allowed in this context". The functions below look at
// the text of a file the decoder refused for these two mistakes and say
// what to write instead; a file the decoder accepts is never judged by
// them, so they cannot refuse valid YAML.

// colonValue matches a line `KEY: VALUE:` (perhaps a list item, perhaps
// with a comment) whose value is a plain word ending in ':'.
var colonValue = regexp.MustCompile(`^([ ]*(?:-[ ]+)?)([A-Za-z0-9_.-]+):[ \t]+([^\s'"{}\[\],#&*!|>%@` + "`" + `][^\s#]*?):[ \t]*(#.*)?$`)

// yamlLine is the line of a decoder error, 0 when it gives none (it
// leaves out "line 1").
var yamlLine = regexp.MustCompile(`^yaml: line (\d+):`)

// fixStorageColon rewrites a top-level `storage: memory:` line as
// `storage: "memory:"` when that line is what the decoder refused: the
// storage field's only URL that ends in ':' is memory:, so the file can
// mean nothing else (storage.Open takes "memory" and "memory:" alike).
// Line numbers are unchanged. It reports whether it changed data.
func fixStorageColon(data []byte, decodeErr error) ([]byte, bool) {
	if !strings.Contains(decodeErr.Error(), "mapping values are not allowed") {
		return data, false
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	n := colonLine(lines, errLine(decodeErr))
	if n == 0 {
		return data, false
	}
	m := colonValue.FindSubmatch(bytes.TrimRight(lines[n-1], "\r\n"))
	if len(m[1]) > 0 || string(m[2]) != "storage" || string(m[3]) != "memory" {
		return data, false
	}
	eol := lines[n-1][len(bytes.TrimRight(lines[n-1], "\r\n")):]
	fixed := []byte(`storage: "memory:"`)
	if len(m[4]) > 0 {
		fixed = append(append(fixed, ' '), m[4]...)
	}
	out := bytes.Join(lines[:n-1], nil)
	out = append(out, fixed...)
	out = append(out, eol...)
	return append(out, bytes.Join(lines[n:], nil)...), true
}

// syntaxHint returns a clearer error than the decoder's for a tab in the
// indentation or a value ending in ':', or nil. data is the file the
// decoder refused with decodeErr.
func syntaxHint(data []byte, decodeErr error) error {
	lines := bytes.SplitAfter(data, []byte("\n"))
	at := max(errLine(decodeErr), 1) // no line: line 1
	// The decoder's line is that of the tab or one after it (a parser
	// error counts from the line before); the first tab-indented line up
	// to it is the culprit, as YAML allows no tab in any indentation.
	for i, l := range lines {
		if i+1 > at {
			break
		}
		lead := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		if bytes.IndexByte(lead, '\t') < 0 {
			continue
		}
		msg := "tabs are not allowed for indentation; use spaces"
		if len(bytes.TrimSpace(l)) == 0 { // the decoder refuses these too
			msg += " (this blank line has a tab)"
		}
		return &fieldError{line: i + 1, msg: msg}
	}
	if !strings.Contains(decodeErr.Error(), "mapping values are not allowed") {
		return nil
	}
	n := colonLine(lines, at)
	if n == 0 {
		return nil
	}
	m := colonValue.FindSubmatch(bytes.TrimRight(lines[n-1], "\r\n"))
	key, val := string(m[2]), string(m[3])+":"
	return &fieldError{line: n, msg: fmt.Sprintf("%s: %s ends in ':', which YAML reads as the start of a mapping; quote it: %s: %s",
		key, val, key, strconv.Quote(val))}
}

// colonLine is the number of the line `KEY: VALUE:` the decoder refused at
// line at (0: unknown, which is line 1), or 0 when that line is not one.
func colonLine(lines [][]byte, at int) int {
	at = max(at, 1)
	if at > len(lines) || !colonValue.Match(bytes.TrimRight(lines[at-1], "\r\n")) {
		return 0
	}
	return at
}

func errLine(err error) int {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
