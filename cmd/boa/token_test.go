package main

import (
	"strings"
	"testing"
)

// boa serve and boa dashboard refuse a weak token at start-up, from
// --token or BOA_TOKEN, before they open the storage or listen, and say
// how to make a good one.
func TestWeakTokenRefused(t *testing.T) {
	t.Setenv("BOA_STORAGE", "memory:")
	for _, c := range []struct {
		env  string
		args []string
		says string
	}{
		{"", []string{"serve", "--addr", "127.0.0.1:0", "--token", "s3cret"}, "has 6 characters; at least 16"},
		{"s3cret", []string{"serve", "--addr", "127.0.0.1:0"}, "has 6 characters; at least 16"},
		{"0123456789abcdef\n", []string{"serve", "--addr", "127.0.0.1:0"}, "contains whitespace at its start or end"},
		{"", []string{"dashboard", "--addr", "127.0.0.1:0", "--token", "my token is long enough"}, "contains whitespace at character 3"},
		{"short", []string{"dashboard", "--addr", "127.0.0.1:0"}, "has 5 characters"},
	} {
		t.Setenv("BOA_TOKEN", c.env)
		_, err := boa(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "openssl rand -hex 16") {
			t.Errorf("BOA_TOKEN=%q boa %s: %v; want %q and how to make a token", c.env, strings.Join(c.args, " "), err, c.says)
		}
	}
}
