package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// helpOf is what `boa ... --help` prints for c.
func helpOf(t *testing.T, c *cobra.Command) string {
	t.Helper()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&out)
	if err := c.Help(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func allCommands(c *cobra.Command) []*cobra.Command {
	all := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		all = append(all, allCommands(sub)...)
	}
	return all
}

// The help of every command cites only what a user has (the repository's
// docs/, published papers), not the project's design document or its seed
// documents, and shows no default that is not the one used.
func TestHelpCitesWhatUsersHave(t *testing.T) {
	internal := regexp.MustCompile(`DESIGN|seed 00\d|\[00\d|spec [a-z-]+ §|\.\./shared/(specs|seeds)`)
	for _, c := range allCommands(rootCmd()) {
		help := helpOf(t, c)
		if m := internal.FindString(help); m != "" {
			t.Errorf("boa %s --help cites %q, which users do not have:\n%s", c.CommandPath(), m, help)
		}
		if f := c.Flags().Lookup("name"); c.Name() == "worker" && strings.Contains(help, f.Value.String()) {
			t.Errorf("boa worker --help shows the name of its own process, %s", f.Value)
		}
		if f := c.Flags().Lookup("storage"); f != nil && c.Name() != "run" && (f.DefValue != "" || !strings.Contains(f.Usage, "(default $BOA_STORAGE, else sqlite:boa.db)")) {
			t.Errorf("boa %s: --storage usage %q, default %q: want the default that is used", c.CommandPath(), f.Usage, f.DefValue)
		}
	}
}

// boa run's help says which flags override the study file, and shows no
// "(default 50)" or "(default \"auto\")": with a file, the file's values
// are the defaults.
func TestRunHelpSaysWhatOverridesTheFile(t *testing.T) {
	var run *cobra.Command
	for _, c := range rootCmd().Commands() {
		if c.Name() == "run" {
			run = c
		}
	}
	help := helpOf(t, run)
	for _, name := range []string{"trials", "workers", "seed", "sampler", "transform", "storage"} {
		f := run.Flags().Lookup(name)
		if !strings.Contains(f.Usage, "overrides the study file's") || !strings.Contains(f.Usage, "(default: the file's") {
			t.Errorf("--%s: %q does not say that it overrides the file, or that the file's is the default", name, f.Usage)
		}
		if !strings.Contains(run.Long, "--"+name) {
			t.Errorf("the Long text does not name --%s among the flags that override the file", name)
		}
	}
	for _, bad := range []string{"(default 50)", `(default "auto")`, `(default "none")`, "(default 1)", "DESIGN.md"} {
		if strings.Contains(help, bad) {
			t.Errorf("boa run --help shows %s:\n%s", bad, help)
		}
	}
	if !strings.Contains(help, "docs/study-file.md") {
		t.Error("boa run --help does not point at docs/study-file.md")
	}
}
