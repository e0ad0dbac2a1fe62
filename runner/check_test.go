//go:build linux

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check must catch what would fail every trial alike, and agree with Run:
// a command it passes runs, one it refuses for its program or directory
// fails at start.
func TestCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	script := "#!/bin/sh\necho BOA_RESULT 1\n"
	os.WriteFile(filepath.Join(bin, "train"), []byte(script), 0o755)
	os.WriteFile(filepath.Join(bin, "noexec"), []byte(script), 0o644) // root cannot execute it either
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)

	tests := []struct {
		name    string
		c       Command
		wantErr string // substring; "" = passes
	}{
		{name: "on PATH", c: Command{Args: []string{"sh", "-c", "echo BOA_RESULT 1"}}},
		{name: "absolute", c: Command{Args: []string{filepath.Join(bin, "train")}}},
		{name: "relative to dir", c: Command{Args: []string{"./train"}, Dir: bin}},
		{name: "placeholder program", c: Command{Args: []string{"{prog}"}}},

		{name: "no such program", c: Command{Args: []string{"/nonexistent/prog", "{x}"}},
			wantErr: `command[0] "/nonexistent/prog": no such file or directory`},
		{name: "not on PATH", c: Command{Args: []string{"boa-no-such-program"}},
			wantErr: `command[0] "boa-no-such-program": executable file not found in $PATH`},
		{name: "no execute permission", c: Command{Args: []string{filepath.Join(bin, "noexec")}}, wantErr: "permission denied"},
		{name: "a directory", c: Command{Args: []string{bin}}, wantErr: "is a directory"},
		{name: "relative, not in dir", c: Command{Args: []string{"./nope"}, Dir: bin},
			wantErr: `command[0] "./nope" (` + bin + `/nope): no such file or directory`},
		{name: "relative, without dir", c: Command{Args: []string{"./train"}}, wantErr: "no such file or directory"},
		{name: "no such dir", c: Command{Args: []string{"true"}, Dir: "/nonexistent/dir"},
			wantErr: "working directory /nonexistent/dir: no such file or directory"},
		{name: "dir is a file", c: Command{Args: []string{"true"}, Dir: file}, wantErr: "working directory " + file + ": not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.c.Check()
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Check() = %v; want %q", err, tt.wantErr)
			}
			if strings.Contains(tt.c.Args[0], "{") {
				return
			}
			res, err := Run(context.Background(), tt.c, Trial{Params: map[string]any{"x": 1}}, nil)
			if (err == nil) != (tt.wantErr == "") {
				t.Fatalf("Run: %v, %v; want it to fail exactly when Check does", res.Value, err)
			}
		})
	}
}

// The log directory is created, and one that cannot be is refused.
func TestCheckLogs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logs := filepath.Join(dir, "a", "logs")
	if err := (Command{Args: []string{"true"}, LogDir: logs}).Check(); err != nil {
		t.Fatal(err)
	}
	if ents, err := os.ReadDir(logs); err != nil || len(ents) != 0 {
		t.Fatalf("logs: %v, %v; want an empty directory", ents, err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for logDir, wantErr := range map[string]string{
		"/proc/nope":                 "logs /proc/nope: ",
		filepath.Join(file, "logs"):  "not a directory",
		"/proc/self":                 "logs /proc/self: cannot create files there",
		filepath.Join(logs, "\x00x"): "invalid argument",
	} {
		err := Command{Args: []string{"true"}, LogDir: logDir}.Check()
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("Check() with logs %q = %v; want %q", logDir, err, wantErr)
		}
	}
}
