package main

import (
	"os"
	"strings"
	"testing"
)

// The README's set-up block: its first command builds boa from nothing on
// a fresh machine, which took 122 s on 2 shared cores (135 CPU-seconds,
// GOCACHE empty) where it promised "a few seconds"; it must say what the
// first time costs. And the data tests' cached skips: Go's test cache does
// not watch files outside the module, so a skip for a missing ../shared is
// replayed after it appears (checked by hand with a copy of the repository
// beside a ../shared renamed away and back) unless the README's -count=1
// is used.
func TestReadmeSetUp(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, setup, ok := strings.Cut(readme, "## Set-up")
	if !ok {
		t.Fatal("README.md has no Set-up section")
	}
	setup, _, _ = strings.Cut(setup, "\n## ")
	first, _, _ := strings.Cut(setup, "go run ./cmd/boa run examples/quickstart.yaml")
	if strings.Contains(first, "few seconds") || !strings.Contains(first, "the first time") || !strings.Contains(first, "minutes") {
		t.Errorf("the comment on the first command does not say that the first time compiles for minutes:\n%s", first)
	}
	if flat := strings.Join(strings.Fields(setup), " "); !strings.Contains(flat, "once `../shared` appears run `go test -count=1 ./...`") {
		t.Error("the Set-up section does not say to run go test -count=1 ./... once ../shared appears")
	}
}
