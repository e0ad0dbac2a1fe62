package study

import (
	"slices"
	"testing"
)

func TestSimilar(t *testing.T) {
	names := []string{"svm-digits", "SVM-Digits2", "mnist", "branin"}
	for name, want := range map[string][]string{
		"svm-digit":  {"svm-digits", "SVM-Digits2"}, // a typo, and another case
		"svm":        {"svm-digits", "SVM-Digits2"}, // the start of a name
		"mnsit":      nil,                           // two edits in five letters
		"mnist":      {"mnist"},
		"brainn":     nil,
		"branin-old": nil,
	} {
		if got := Similar(names, name); !slices.Equal(got, want) {
			t.Errorf("Similar(%q) = %q, want %q", name, got, want)
		}
	}
}
