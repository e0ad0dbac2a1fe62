package runner

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcode, 日本語, ✓": "plain text, ünïcode, 日本語, ✓",
		"two\nlines\tand a tab":       "two\nlines\tand a tab",
		"\x1b[1;31mred\x1b[0m":        `\x1b[1;31mred\x1b[0m`,
		"\x1b]0;title\a":              `\x1b]0;title\a`,
		"50%\r100%\b\f\v":             `50%\r100%\b\f\v`,
		"nul\x00del\x7f":              `nul\x00del\x7f`,
		"\x9b2J":                      `\x9b2J`,   // a lone byte: not UTF-8
		"\u009b2J":                    `\u009b2J`, // the C1 CSI, as a character
		"\xff\xfe\xc3":                `\xff\xfe\xc3`,
		"abc\u202edcba":               `abc\u202edcba`, // right-to-left override
		`C:\path\x1b`:                 `C:\path\x1b`,   // backslashes kept
	} {
		got := Printable(in)
		if got != want {
			t.Errorf("Printable(%q) = %q; want %q", in, got, want)
		}
		if again := Printable(got); again != got {
			t.Errorf("Printable(Printable(%q)) = %q; want %q", in, again, got)
		}
		if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }) {
			t.Errorf("Printable(%q) = %q still has control characters", in, got)
		}
	}
	// A cut falls between characters and escapes, never inside one.
	for max, want := range map[int]string{3: "ab", 5: "ab", 6: `ab\x1b`, 7: `ab\x1b`, 8: `ab\x1bé`} {
		got, cut := printableCut("ab\x1bé!", max)
		if got != want || !cut {
			t.Errorf("printableCut(max %d) = %q, %v; want %q, true", max, got, cut, want)
		}
	}
}

// The tail keeps 4 KiB; when that cut falls inside a character, the
// character's remaining bytes are dropped rather than shown as \x escapes.
func TestTailCutInsideACharacter(t *testing.T) {
	var tl tail
	tl.Write([]byte("x" + strings.Repeat("é", tailBytes/2)))
	if got := tl.lines(1); strings.Contains(got, `\x`) || !strings.HasPrefix(got, "éé") {
		t.Errorf("lines = %.20q…", got)
	}
}
