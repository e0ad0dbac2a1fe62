package runner

import "errors"

var (
	// ErrTimeout is matched (errors.Is) by the error of a trial that ran
	// past Command.Timeout.
	ErrTimeout = errors.New("timed out")
	// ErrInterrupted is matched by the error of a trial whose context was
	// cancelled; the error also matches the context's error.
	ErrInterrupted = errors.New("interrupted")
)

// failure is a FAILED trial's reason: the text a user reads, and the
// sentinels callers may test for.
type failure struct {
	msg  string
	kind []error
}

func (f *failure) Error() string   { return f.msg }
func (f *failure) Unwrap() []error { return f.kind }
