package server

import (
	"strings"
	"testing"
)

// A token is refused, saying why and how to make a good one, when it is
// short or has whitespace; the message never shows the token.
func TestCheckToken(t *testing.T) {
	for _, tok := range []string{"", "0123456789abcdef", "9f86d081884c7d659a2feaa0c55ad015", "ça-fait-seize-ca"} {
		if err := CheckToken(tok); err != nil {
			t.Errorf("CheckToken(%q) = %v", tok, err)
		}
	}
	for tok, want := range map[string]string{
		"s3cret":                             "has 6 characters; at least 16",
		"0123456789abcde":                    "has 15 characters",
		"éééééééééééééé":                     "has 14 characters", // characters, not bytes
		"0123456789abcdef\n":                 "whitespace at its start or end (a newline",
		" 0123456789abcdef":                  "whitespace at its start or end",
		"0123456789 abcdef":                  "whitespace at character 11",
		"01234567\t89abcdef":                 "whitespace at character 9",
		"correct horse battery staple 12345": "whitespace at character 8",
	} {
		err := CheckToken(tok)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "openssl rand -hex 16") {
			t.Errorf("CheckToken(%q) = %v; want %q and how to make a token", tok, err, want)
			continue
		}
		if strings.Contains(err.Error(), strings.TrimSpace(tok)) {
			t.Errorf("CheckToken(%q): the message shows the token: %v", tok, err)
		}
	}
}
