// Package worker is the loop of `boa worker` (DESIGN.md §1, "Scaling
// out"): a plain process that asks a boa server for a trial, runs the
// user's command for it (package runner, the result protocol of DESIGN.md
// §2.3), sends heartbeats while it runs and until its result is told,
// passes its intermediate values on (stopping it when the study's pruner
// says so), and tells the result, until the study's budget is used up.
//
// Any cluster scheduler starts workers (a Kubernetes Deployment or Job, a
// Slurm job array, systemd units); the state lives in the server's
// storage, so a worker keeps nothing of its own. What a worker must
// survive, it does: a server or database restart (the client retries, the
// heartbeats go on, the result is kept until told), a trial taken for dead
// meanwhile (stopped at the next heartbeat, its result discarded), and
// Ctrl-C (the command is stopped and the trial FAILED "interrupted" and
// re-queued).
package worker
