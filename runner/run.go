package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Run runs the command for trial t, parsing its stdout as it streams;
// onReport, if non-nil, is called for each valid BOA_REPORT line as it
// arrives, in order, from one goroutine, and not after Run returns. A slow
// onReport delays neither the command nor the reading of its output. The
// command's stdout and stderr are copied to the log files of
// LogPaths when c.LogDir is set, also when the trial fails.
//
// Run returns an error, together with the partial Result, when the trial
// must be FAILED; the error's text is the reason to record. An error
// matching ErrTimeout or ErrInterrupted means Run stopped the command.
// Errors found before the command starts (a placeholder without a value,
// a program that cannot be executed) are returned the same way, with
// ExitCode -1. Problems that must not fail the trial, such as a log file
// that cannot be created or written, are in Result.Warnings, also when Run
// returns nil.
func Run(ctx context.Context, c Command, t Trial, onReport func(Report)) (Result, error) {
	res := Result{ExitCode: -1}
	if err := ctx.Err(); err != nil {
		return res, interrupted(err)
	}
	if len(c.Args) == 0 || c.Args[0] == "" {
		return res, errors.New("command is empty")
	}
	args, err := c.Argv(t.argvParams())
	if err != nil {
		return res, err
	}
	env, err := environ(c, t)
	if err != nil {
		return res, err
	}
	var outPath, errPath string
	if c.LogDir != "" {
		outPath, errPath = LogPaths(c.LogDir, t)
	}
	outLog, errLog := openLog(outPath), openLog(errPath)
	res.Stdout, res.Stderr = outLog.path, errLog.path
	if c.Grace <= 0 {
		c.Grace = DefaultGrace
	}

	p := &parser{}
	if onReport != nil {
		rl := newRelay(onReport)
		defer rl.close() // no call after Run returns
		p.onReport = rl.push
	}
	var st tail
	runErr := execute(ctx, c, args, env, outLog, errLog, p, &st, &res)
	res.Value, res.Values, res.Names, res.Metrics, res.Reports = p.value, p.values, p.names, p.metrics, p.reports
	res.Warnings = p.warnings()
	for _, l := range []*logFile{outLog, errLog} {
		// Both logs fail alike when their directory cannot be made: say it once.
		if err := l.close(); err != nil && !slices.Contains(res.Warnings, err.Error()) {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}

	switch {
	case runErr != nil:
		return res, runErr
	case p.err() != nil:
		err := p.err()
		if !p.hasResult && st.sawResult {
			err = fmt.Errorf("%w (stderr has a BOA_RESULT line, but results are read from stdout)", err)
		}
		return res, err
	}
	return res, nil
}

func interrupted(cause error) error {
	return &failure{msg: "interrupted", kind: []error{ErrInterrupted, cause}}
}

func timedOut(c Command) error {
	return &failure{msg: "timed out after " + shortDuration(c.Timeout), kind: []error{ErrTimeout}}
}

// relay calls f for each pushed report on a goroutine of its own, so that
// the stdout reader never waits for the caller (a heartbeat over the
// network, say): a stalled reader would stall the command on a full pipe,
// or lose output when the pipes are closed after the grace period.
type relay struct {
	f      func(Report)
	mu     sync.Mutex
	wake   *sync.Cond
	queue  []Report
	closed bool
	done   chan struct{}
}

func newRelay(f func(Report)) *relay {
	r := &relay{f: f, done: make(chan struct{})}
	r.wake = sync.NewCond(&r.mu)
	go r.loop()
	return r
}

func (r *relay) loop() {
	defer close(r.done)
	for {
		r.mu.Lock()
		for len(r.queue) == 0 && !r.closed {
			r.wake.Wait()
		}
		batch := r.queue
		r.queue = nil
		r.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		for _, x := range batch {
			r.f(x)
		}
	}
}

func (r *relay) push(x Report) {
	r.mu.Lock()
	r.queue = append(r.queue, x)
	r.mu.Unlock()
	r.wake.Signal()
}

// close waits for the queued calls.
func (r *relay) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.wake.Signal()
	<-r.done
}
