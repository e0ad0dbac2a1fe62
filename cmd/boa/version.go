package main

import (
	"cmp"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is what boa --version prints after "boa version": the module
// version and the commit the go command stamped into the binary. go build
// and go install in a clone record the commit (vcs.revision, and
// vcs.modified for uncommitted changes); go install module@version records
// the version but no commit, so each is printed only when known.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (built without module information), " + runtime.Version()
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	parts := []string{info.Main.Version}
	if parts[0] == "" {
		parts[0] = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		c := "commit " + rev
		if modified == "true" {
			c += " (modified)"
		}
		parts = append(parts, c)
	}
	return strings.Join(append(parts, cmp.Or(info.GoVersion, runtime.Version())), ", ")
}
