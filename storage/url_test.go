package storage

import "testing"

// TestRedact: a storage URL's password is hidden in logs and messages,
// given before the host or as a parameter; other URLs are left as they are.
func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://boa:secret@db:5432/boa?sslmode=disable": "postgres://boa:xxxxx@db:5432/boa?sslmode=disable",
		"postgres://db:5432/boa?user=boa&password=secret":   "postgres://db:5432/boa?password=xxxxx&user=boa",
		"postgres://boa@db/boa":                             "postgres://boa@db/boa",
		"sqlite:boa.db":                                     "sqlite:boa.db",
		"sqlite:///runs/boa.db":                             "sqlite:///runs/boa.db",
		"memory:":                                           "memory:",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
