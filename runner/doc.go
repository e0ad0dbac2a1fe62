// Package runner runs a user's command as the objective of one trial, the
// subprocess objective of a study file (DESIGN.md §2.2), and reads its result
// through the trial result protocol (DESIGN.md §2.3).
//
// # Arguments and environment
//
// Each argument may contain {name} placeholders, replaced by the trial's
// parameter values. Callers pass the values in the form of
// space.Space.Export, json.Numbers written by the parameter's kind, which
// Substitute keeps as they are: a float parameter always as a float (1.0,
// 0.001, 1e-05), an int, and an ordinal of whole values, as digits
// (1000000 rather than 1e+06); booleans as true/false, categoricals as
// written. Without the space, a float64 is written in its canonical form
// (space.Format) but whole numbers below 1e21 as digits. {{ and }} stand
// for literal braces. A conditional parameter has no value in the trials
// where it is inactive, so ValidateSpace refuses a plain {name} of one;
// the optional {name?} leaves its argument out in those trials, and a
// Group leaves out a run of arguments, such as a flag and its value. (A
// command that was not validated so fails those trials, naming the
// placeholder.)
//
// Before the first trial, ValidateSpace (or Validate) checks the command's
// syntax against the space, and Command.Check what would fail every trial
// alike: the program, the working directory, the log directory.
//
// The command inherits boa's environment plus Command.Env and, taking
// precedence over both, BOA_TRIAL_ID, BOA_TRIAL_NUMBER, BOA_STUDY and
// BOA_PARAMS (the active parameters as one JSON object, numbers written as
// in the arguments: 1.0 for a float). Its standard input is
// /dev/null.
//
// # Protocol
//
// The command reports on standard output, one item per line (a line ends
// at '\n' or, as progress bars print, '\r'; surrounding white space is
// ignored; every other line is ordinary output):
//
//	BOA_RESULT <value>          the objective; required; the last one wins
//	BOA_METRIC <name> <value>   an extra metric or a constrained metric's value; the last valid one per name wins
//	BOA_REPORT <step> <value>   an intermediate value (learning curve), step an integer
//
// Values are decimal floats (0.083, -1, 3e-2; not hex floats, nor with _
// between digits) and must be finite, but for a metric's: nan and inf are
// metric values, which a study's constraints judge (a constraint on a
// metric reported as nan does not hold). The trial is FAILED, with a
// short reason that a user reads in `boa trials`, when the command exits
// non-zero ("exit code 2: <last lines of stderr>"), runs past its timeout
// ("timed out after 10m"), is interrupted ("interrupted"), prints no
// BOA_RESULT line, or when the last BOA_RESULT line is malformed or not
// finite (the reason quotes the line). Malformed lines are judged when the
// command has finished: it is not stopped early for them.
//
// Nothing else fails a trial. A malformed BOA_METRIC line, or a
// malformed or non-finite BOA_REPORT line (a diverged epoch printing a
// nan loss), is dropped: a metric keeps its last valid value, a bad
// report is not reported. A log file that cannot be created or written
// costs the log. Both are returned in Result.Warnings for the caller to
// print.
//
// # Processes
//
// The command runs in a process group of its own, so a terminal's Ctrl-C
// reaches boa only; boa stops the trial by cancelling the context. On
// timeout or cancellation the whole group (the command and every process it
// started) gets SIGTERM and, Command.Grace later, SIGKILL. Processes of the
// group left behind when the command exits are stopped the same way, so a
// trial never leaks processes and Run never waits on a pipe held open by a
// background grandchild.
//
// The package is for Linux (it reads /proc to tell live processes from
// zombies); on other systems Run returns an error.
package runner
