package runner

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s with what a terminal would act on instead of show
// written as Go escapes: ANSI sequences (ESC becomes \x1b), carriage
// returns, backspaces, NUL and the other control characters, invisible
// format characters such as U+202E (which reverses the text after it), and
// bytes that are not UTF-8 (\xff). Newlines, tabs and every visible
// character, in any script, are kept. A failing command's output reaches
// the terminal through its reason (`boa run`, `boa trials`, `boa worker`),
// and a program that crashed halfway through a progress bar or printed a
// binary file must not recolour, clear or retitle the user's terminal.
//
// A backslash is kept as it is, so the result is for reading, not for
// unquoting; and as it is printable, Printable(Printable(s)) ==
// Printable(s), so text escaped once may be escaped again on the way out.
func Printable(s string) string {
	out, _ := printableCut(s, math.MaxInt)
	return out
}

// printableCut is Printable(s) cut to at most max bytes, never inside a
// character or an escape, and whether it was cut.
func printableCut(s string, max int) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && size == 1:
			piece = `\x` + strconv.FormatUint(uint64(s[i])>>4, 16) + strconv.FormatUint(uint64(s[i])&0xf, 16)
		case r == '\n' || r == '\t' || unicode.IsGraphic(r):
			piece = s[i : i+size]
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\r', '\u202e'
			piece = q[1 : len(q)-1]
		}
		if b.Len()+len(piece) > max {
			return b.String(), true
		}
		b.WriteString(piece)
		i += size
	}
	return b.String(), false
}
