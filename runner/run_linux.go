package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// execute starts args in a process group of its own, feeds its stdout to p
// and its stderr to st, both also to their logs, and returns once the
// command and everything it left behind are gone and the output is read.
// The returned error is the reason the process failed (stop, exit status,
// start); p holds the output's own verdict.
func execute(ctx context.Context, c Command, args, env []string, outLog, errLog *logFile, p *parser, st *tail, res *Result) error {
	if c.Dir != "" {
		if err := checkDir(c.Dir); err != nil {
			return err
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	cmd.Dir = c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Our own pipes rather than cmd.StdoutPipe: the child gets the file
	// descriptors directly, Wait returns when the command exits, and we can
	// close the read ends if a process outside our reach holds them open.
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return err
	}
	defer errR.Close()
	cmd.Stdout, cmd.Stderr = outW, errW

	start := time.Now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		return fmt.Errorf("starting command: %w", err)
	}

	var wg sync.WaitGroup
	wg.Go(func() { p.read(io.TeeReader(outR, outLog)) })
	wg.Go(func() { io.Copy(io.MultiWriter(errLog, st), errR) })
	readersDone := make(chan struct{})
	go func() { wg.Wait(); close(readersDone) }()

	g := &group{pgid: cmd.Process.Pid, grace: c.Grace, killed: make(chan struct{})}
	exited := make(chan struct{})
	var deadline <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	go func() {
		select {
		case <-ctx.Done():
			g.terminate(interrupted(ctx.Err()))
		case <-deadline:
			g.terminate(timedOut(c))
		case <-exited:
		}
	}()

	waitErr := cmd.Wait()
	close(exited)
	g.terminate(nil) // whatever the command left running
	g.settle(readersDone, outR, errR)
	res.Duration = time.Since(start)
	res.ExitCode = cmd.ProcessState.ExitCode()

	if reason := g.stopReason(); reason != nil {
		return reason
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		msg := fmt.Sprintf("exit code %d", ee.ExitCode())
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			msg = fmt.Sprintf("killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
			res.Signal = ws.Signal()
		}
		if t := st.lines(3); t != "" {
			msg += ": " + t
		}
		return errors.New(msg)
	}
	return waitErr
}

// group is the command's process group, stopped with SIGTERM and, grace
// later, SIGKILL.
type group struct {
	pgid  int
	grace time.Duration

	mu       sync.Mutex
	termSent bool
	reason   error // why Run stopped the command; nil when it exited by itself
	timer    *time.Timer
	killed   chan struct{} // closed once SIGKILL is sent
}

// terminate sends SIGTERM to the group once, recording reason, and
// schedules SIGKILL. Later calls do nothing, so a stop that races with the
// command's own exit is decided by whichever comes first.
func (g *group) terminate(reason error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.termSent {
		return
	}
	g.termSent, g.reason = true, reason
	syscall.Kill(-g.pgid, syscall.SIGTERM)
	g.timer = time.AfterFunc(g.grace, func() {
		syscall.Kill(-g.pgid, syscall.SIGKILL)
		close(g.killed)
	})
}

func (g *group) stopReason() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reason
}

// settle waits until the output is read and no live process is left in the
// group, or until SIGKILL has been sent. If then a process outside the
// group (one that called setsid) still holds the pipes, their read ends are
// closed so that Run returns.
func (g *group) settle(readersDone <-chan struct{}, pipes ...*os.File) {
	select {
	case <-readersDone:
	case <-g.killed:
	}
poll:
	for delay := time.Millisecond; g.alive(); delay = min(2*delay, 50*time.Millisecond) {
		select {
		case <-g.killed:
			break poll
		case <-time.After(delay):
		}
	}
	select {
	case <-readersDone:
	case <-time.After(500 * time.Millisecond):
		for _, f := range pipes {
			f.Close()
		}
		<-readersDone
	}
	g.mu.Lock()
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Unlock()
}

// alive reports whether a process of the group is still running. Zombies
// do not count: once their parent is gone they wait for init to reap them,
// which in a container may never happen.
func (g *group) alive() bool {
	if err := syscall.Kill(-g.pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		state, pgrp, ok := parseStat(b)
		if ok && pgrp == g.pgid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// parseStat reads the state and process group from /proc/PID/stat:
// "pid (comm) state ppid pgrp ...", where comm may hold spaces and ')'.
func parseStat(b []byte) (state byte, pgrp int, ok bool) {
	i := len(b) - 1
	for i >= 0 && b[i] != ')' {
		i--
	}
	var ppid int
	n, err := fmt.Sscanf(string(b[i+1:]), " %c %d %d", &state, &ppid, &pgrp)
	return state, pgrp, err == nil && n == 3
}
