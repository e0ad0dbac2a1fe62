// Package client is a Go client for boa's HTTP API (DESIGN.md §2.4,
// docs/http-api.md), the one `boa worker` uses.
//
// A Client retries what a network or a restarting server breaks for a
// moment: connection refused or reset, a connection the server closed as
// idle just as a request went out, a response cut short, a timeout, and
// the statuses 429, 502, 503 and 504. It waits between attempts with capped
// exponential backoff and full jitter, so that many workers that lost the
// same server do not come back in step, for at most WithRetry's budget (2
// minutes by default), and stops at once when the context ends. Every other
// status, in particular every other 4xx, is returned at once as an *Error.
//
// CreateStudy and Enqueue are the exception: the server must not act on
// them twice (a second enqueue adds a second trial; a second create finds
// the study the first made and answers 409), so they are retried only when
// the request cannot have reached the server (connection refused, 429),
// and a lost answer or a 503 (the server's database dropped the
// connection, perhaps after the write) is returned as an error.
//
// Retrying is safe for every other call: report and heartbeat are idempotent,
// the server answers a repeated tell that carries the result the trial
// already has with 200 (so a tell whose first answer was lost does not fail
// on its retry), and every attempt of one ask carries the same random
// request_id, so a repeat after a lost answer gets the trials the first
// attempt was handed, not new ones.
package client
