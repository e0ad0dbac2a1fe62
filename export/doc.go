// Package export writes the trials of a study for other tools to read, as
// `boa export` and `boa best --json` print them: CSV, one row per trial
// (a column per parameter and per metric), and JSON in the HTTP API's
// form of a trial (package api), so that a script reads an export and an
// answer of GET /api/v1/studies/{name}/trials alike.
package export
