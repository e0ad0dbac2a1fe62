package runner

import (
	"context"
	"errors"
	"syscall"
	"time"
)

// ErrPruned is the error of RunPrunable for a trial its study's pruner
// stopped: the trial is PRUNED, not FAILED.
var ErrPruned = errors.New("stopped by the pruner")

// RunPrunable runs the command for trial t as Run does, and stops it early
// when the study's pruner says so: the one prunable command trial of both
// `boa run` and `boa worker`. Each BOA_REPORT goes to report, which
// records it where the study is kept (the study itself, or the server
// through the client) and answers whether the trial should stop; report's
// context ends once it has said so. The command is then stopped and the
// error is ErrPruned, with Result.Value the value of the largest step
// reported, the value a PRUNED trial keeps (Optuna's; 0 when none was,
// which cannot be pruned).
//
// A command that dies of a SIGTERM or SIGINT that boa did not send
// (Result.Signal) makes RunPrunable wait up to a second for ctx to end:
// sent to boa's whole process group or control group (systemd's default
// KillMode, Slurm's scancel), the signal may reach the command before boa,
// and the trial must then be recorded as interrupted and re-queued, not
// FAILED.
func RunPrunable(ctx context.Context, c Command, t Trial, report func(ctx context.Context, r Report) (prune bool)) (Result, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	res, err := Run(rctx, c, t, func(r Report) {
		if report(rctx, r) {
			cancel(ErrPruned)
		}
	})
	if err != nil && context.Cause(rctx) == ErrPruned && ctx.Err() == nil {
		res.Value = lastReport(res.Reports)
		return res, ErrPruned
	}
	if err != nil {
		awaitOwnStop(ctx, res)
	}
	return res, err
}

// lastReport is the value of the largest step reported; 0 when none was.
func lastReport(rs []Report) float64 {
	var last Report
	for _, r := range rs {
		if r.Step >= last.Step {
			last = r
		}
	}
	return last.Value
}

// awaitOwnStop waits up to a second for ctx to end when the command died
// of a SIGTERM or SIGINT that boa did not send.
func awaitOwnStop(ctx context.Context, res Result) {
	if res.Signal != syscall.SIGTERM && res.Signal != syscall.SIGINT {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
