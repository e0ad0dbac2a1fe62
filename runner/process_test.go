//go:build linux

package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readPID reads the pid a script wrote to path.
func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q: %v", b, err)
	}
	return pid
}

// gone reports whether pid has died (a zombie waiting for a reaper counts:
// it runs nothing), giving the kernel a moment.
func gone(pid int) bool {
	for range 100 {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if state, _, ok := parseStat(b); ok && (state == 'Z' || state == 'X') {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func TestStop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		script  string // $1 is a file for the grandchild's pid
		timeout time.Duration
		cancel  time.Duration // cancel the context after this long; 0 = never
		grace   time.Duration
		want    error
		reason  string
		min     time.Duration // Run must not return before this...
		max     time.Duration // ...nor after this: well below the sleep 30 it stops, with room for a loaded machine
	}{
		{name: "timeout kills grandchild", script: `sleep 30 & echo $! > "$1"; wait`,
			timeout: 300 * time.Millisecond, grace: 5 * time.Second, want: ErrTimeout,
			reason: "timed out after 300ms", min: 300 * time.Millisecond, max: 10 * time.Second},
		{name: "SIGTERM ignored: SIGKILL after grace", script: `trap '' TERM; sleep 30 & echo $! > "$1"; wait; wait; wait`,
			timeout: 200 * time.Millisecond, grace: 400 * time.Millisecond, want: ErrTimeout,
			reason: "timed out after 200ms", min: 600 * time.Millisecond, max: 10 * time.Second},
		{name: "cancel kills grandchild", script: `echo BOA_RESULT 1; sleep 30 & echo $! > "$1"; wait`,
			cancel: 200 * time.Millisecond, want: ErrInterrupted, reason: "interrupted",
			min: 200 * time.Millisecond, max: 10 * time.Second},
		{name: "leftover after exit is stopped", script: `sleep 30 & echo $! > "$1"; echo BOA_RESULT 2`,
			grace: 5 * time.Second, max: 4 * time.Second}, // stopped by SIGTERM, not after the grace
		{name: "leftover ignoring SIGTERM, not holding pipes", script: `trap '' TERM; sleep 30 >/dev/null 2>&1 & echo $! > "$1"; echo BOA_RESULT 2`,
			grace: 300 * time.Millisecond, min: 300 * time.Millisecond, max: 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "pid")
			c := sh(tt.script, pidFile)
			c.Timeout, c.Grace = tt.timeout, tt.grace
			ctx := context.Background()
			if tt.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(tt.cancel, cancel)
			}
			start := time.Now()
			_, err := Run(ctx, c, Trial{}, nil)
			took := time.Since(start)
			if tt.want == nil && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tt.want != nil && (!errors.Is(err, tt.want) || err.Error() != tt.reason) {
				t.Fatalf("error %v; want %q matching %v", err, tt.reason, tt.want)
			}
			if took < tt.min || took > tt.max {
				t.Errorf("Run took %v; want between %v and %v", took, tt.min, tt.max)
			}
			if pid := readPID(t, pidFile); !gone(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("grandchild %d survived", pid)
			}
		})
	}
}

func TestInterruptWrapsContextError(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Run(ctx, sh("sleep 30"), Trial{}, nil)
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.DeadlineExceeded) || err.Error() != "interrupted" {
		t.Fatalf("error %v; want interrupted matching ErrInterrupted and DeadlineExceeded", err)
	}

	// A context cancelled before Run starts nothing.
	dir := t.TempDir()
	_, err = Run(ctx, sh(`touch "$1/ran"`, dir), Trial{}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v; want interrupted", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Fatal("the command ran under a cancelled context")
	}
}

// A process that leaves the group (setsid) but keeps the pipes open must
// not hold Run for longer than the grace period.
func TestEscapedProcessHoldingPipes(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid not installed")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The pid file appears only once the process has left the group.
	c := sh(`setsid sh -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 30' sh "$1" &
		while [ ! -e "$1" ]; do sleep 0.01; done; echo BOA_RESULT 3`, pidFile)
	c.Grace = 300 * time.Millisecond
	start := time.Now()
	res, err := Run(context.Background(), c, Trial{}, nil)
	took := time.Since(start)
	t.Cleanup(func() { syscall.Kill(readPID(t, pidFile), syscall.SIGKILL) })
	if err != nil || res.Value != 3 {
		t.Fatalf("got %v, %v; want 3, nil", res.Value, err)
	}
	if took < c.Grace || took > 2*time.Second {
		t.Fatalf("Run took %v with a setsid process holding its pipes", took)
	}
}

func TestParseStat(t *testing.T) {
	state, pgrp, ok := parseStat([]byte("123 (a) b (c)) S 1 456 456 0 -1"))
	if !ok || state != 'S' || pgrp != 456 {
		t.Fatalf("parseStat = %c %d %v; want S 456 true", state, pgrp, ok)
	}
}
