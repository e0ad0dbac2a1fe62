// Package server is boa's HTTP JSON API (DESIGN.md §2.4): remote workers
// ask a study for trials, run them wherever they are, and tell the results
// back; people and tools create studies and read their trials.
//
// New returns an http.Handler over a storage.Storage. The handler keeps no
// state of its own that matters for correctness: every trial, lease and
// claim lives in the storage, so any number of `boa serve` processes may
// share one PostgreSQL database behind a load balancer (DESIGN.md §1,
// "Scaling out"). A process caches the study.Study of each study it has
// served (the decoded space and the sampler), and serialises the asks of one
// study inside the process; across processes the storage's suggestion lease
// and SKIP LOCKED claims do the same.
//
// # Endpoints
//
//	POST /api/v1/studies                      create a study (body: the study file of §2.2 as JSON) → 201
//	GET  /api/v1/studies                      list studies with trial counts and the best value
//	GET  /api/v1/studies/{name}               one study's summary
//	DELETE /api/v1/studies/{name}             delete it with its trials → {"deleted":name,"trials":n}
//	POST /api/v1/studies/{name}/ask           {"n":k, "worker":"id"} → {"trials":[{"id","number","params"}],...}
//	POST /api/v1/studies/{name}/trials        enqueue a configuration {"params":{...}} → 201
//	GET  /api/v1/studies/{name}/trials        every trial, in order
//	GET  /api/v1/studies/{name}/best          the best COMPLETE trial (404 when there is none)
//	POST /api/v1/trials/{id}/tell             {"value":x} | {"state":"PRUNED","value":x} | {"state":"FAILED","reason":"..."}
//	POST /api/v1/trials/{id}/report           {"step":s, "value":v}
//	POST /api/v1/trials/{id}/heartbeat        → 204
//	GET  /healthz                             → 200 (no authentication, for load balancers)
//
// docs/http-api.md describes each with a curl example.
//
// # Dashboard
//
// The same handler serves the web dashboard (docs/dashboard.md): its page
// at / and its files under /assets/ (package server/dashboard, embedded),
// and the read-only JSON its pages read, aggregated and paged here so that
// a 50,000-trial study is never sent whole:
//
//	GET  /api/v1/studies/{name}/analysis?kind=history,importance,...   package analysis's results, bounded
//	GET  /api/v1/studies/{name}/table?page=&size=&sort=&state=&q=...  one page of the filtered, sorted trials
//	GET  /api/v1/studies/{name}/export?format=csv|json&...            the filtered trials, as boa export writes them
//	POST /login                                                       the token from the page's form → a session cookie
//
// The requests of a page share one read of the study (snapshot.go). A
// browser shows the token once (/?token=T or the form) and then carries an
// HttpOnly session cookie, accepted for GET requests only. With
// Options.ReadOnly (boa dashboard) every endpoint that writes answers 403.
//
// # Validation
//
// Every input is checked at the edge (DESIGN.md §3) and a bad one answers a
// 4xx with {"error": "..."} that says what is wrong: malformed JSON and
// unknown fields (400), values that are not finite numbers (400; JSON
// cannot carry NaN or Infinity, and the strings "NaN" and "Inf" are
// refused by name), parameters outside the space (400), an unknown study or
// trial (404), a result for a trial that already has a different one (409),
// a body over Options.MaxBody (413), a missing or wrong bearer token (401).
// A panic in a handler is logged and answered with a 500; the fuzz test
// FuzzHandler checks that client garbage never gets one.
//
// # Idempotent tell
//
// Workers retry requests whose answer was lost on the network. A tell that
// repeats the result the trial already has (same state, value, reason and
// metrics) is answered 200 again, so a retried tell never turns into an
// error; a tell with a different result is a 409, because a trial's
// result is final.
package server
