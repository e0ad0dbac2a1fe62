package config

import (
	"strings"
	"testing"
)

// `storage: memory:` is what a user writes after reading "memory:" in
// the docs; YAML refuses it (a value ending in ':' opens a mapping), and
// so did boa. It means one thing, so it is read as "memory:", as is the
// same URL on a line of its own; line numbers of later errors stay right.
func TestStorageMemoryColon(t *testing.T) {
	space := "space:\n  x: {type: float, low: 0, high: 1}\n"
	for name, doc := range map[string]string{
		"first line":     "storage: memory:\nname: a\n" + space,
		"after name":     "name: a\nstorage: memory:\n" + space,
		"with a comment": "name: a\nstorage: memory:   # nothing kept\n" + space,
		"CRLF":           "name: a\r\nstorage: memory:\r\n" + strings.ReplaceAll(space, "\n", "\r\n"),
		"own line":       "name: a\nstorage:\n  memory:\n" + space,
		"quoted":         "name: a\nstorage: \"memory:\"\n" + space,
		"bare":           "name: a\nstorage: memory\n" + space,
		"flow":           "{name: a, storage: memory:, space: {x: {type: float, low: 0, high: 1}}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			s, err := ParseYAML([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if s.Storage != "memory:" && s.Storage != "memory" {
				t.Errorf("storage = %q", s.Storage)
			}
		})
	}
	_, err := ParseYAML([]byte("name: a\nstorage: memory:\ntrials: -1\n" + space))
	if err == nil || !strings.Contains(err.Error(), "line 3: trials") {
		t.Errorf("after the rewrite, error %v; want it on line 3", err)
	}
}

// Elsewhere a value ending in ':' has no single meaning: the error says
// to quote it, on its line, instead of the decoder's "mapping values are
// not allowed in this context". A tab in the indentation gets "tabs are
// not allowed" on the tab's line instead of "found character that cannot
// start any token".
func TestSyntaxHints(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"colon value", "name: a:\nspace:\n  x: {type: float, low: 0, high: 1}\n",
			`line 1: name: a: ends in ':', which YAML reads as the start of a mapping; quote it: name: "a:"`},
		{"nested colon value", "name: a\nobjective:\n  dir: data:\n",
			`line 3: dir: data: ends in ':', which YAML reads as the start of a mapping; quote it: dir: "data:"`},
		{"storage of another kind", "name: a\nstorage: sqlite:boa.db:\n",
			`line 2: storage: sqlite:boa.db: ends in ':'`},
		{"tab before a field", "name: a\nspace:\n\tx: {type: float, low: 0, high: 1}\n",
			"line 3: tabs are not allowed for indentation; use spaces"},
		{"tab after spaces", "name: a\nspace:\n  x:\n  \t{type: float, low: 0, high: 1}\n",
			"line 4: tabs are not allowed for indentation; use spaces"},
		{"tab in a list", "name: a\nobjective:\n  command:\n\t- echo\n",
			"line 4: tabs are not allowed for indentation; use spaces"},
		{"tab on line 1", "\tname: a\n",
			"line 1: tabs are not allowed for indentation; use spaces"},
		{"tab on a blank line", "name: a\n\t\nspace: {}\n",
			"line 2: tabs are not allowed for indentation; use spaces (this blank line has a tab)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseYAML([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want %q", err, tc.want)
			}
		})
	}
	// A mistake on line 1 (the decoder gives no line) is not blamed on a
	// tab further down.
	if _, err := ParseYAML([]byte("name: a: b\nspace:\n\tx: 1\n")); err != nil && strings.Contains(err.Error(), "tabs") {
		t.Errorf("error %v; want the decoder's, about line 1", err)
	}
	// Tabs that YAML allows (between a key and its value, in a comment,
	// inside quotes) are not judged.
	if _, err := ParseYAML([]byte("name:\ta\n# \tnote\nspace:\n  x: {type: float, low: 0, high: 1}\nobjective: {command: [echo, \"\tBOA_RESULT 1\"]}\n")); err != nil {
		t.Error(err)
	}
}
