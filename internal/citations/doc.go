// Package citations checks that every citation key in a comment of the
// repository's Go files is decoded in docs/references.md. It has no code
// for the rest of boa; its test walks the module from the go.mod above it
// and fails on each unknown key with its file and line. With -v the test
// lists the keys in use and how often:
//
//	go test ./internal/citations -run TestRepositoryCitations -v
//
// The grammar Extract applies to the text of one comment group (its lines
// joined, so a citation may break across lines):
//
//   - Seed: a three-digit number starting with 0 that stands alone, not
//     inside a number or a word: "[000 §5.5]", "002 Eq. 4.3", "seeds 000
//     and 002", "thesis 001 gives", "[000 ch. 7; 003]", "000–004" (but not
//     0.005, 1e-05, f015, 1_000 or 0123). The key is the number.
//   - Spec: "spec <name>" where the name is lower-case words joined by
//     hyphens (spec gp-and-acquisitions §4, spec async-batch-playbook.md),
//     or one word followed by § (spec mixed §7.4); "<name> spec §" (the
//     mixed spec §4.1 form), which must resolve when the name is hyphenated
//     or opens a bracket or a clause ("[", "(", ";"), prose such as "the
//     spec §4" aside; ../shared/specs/<name>.md; and a bare <name>.md
//     followed by § or by a quoted section title (nas-graph-bo.md §8),
//     which may also name a file of docs/. A bare <name>.md with neither is
//     a citation only if it resolves: an output file name (report.md) is
//     not one.
//   - Project document: DESIGN.md, or DESIGN §N.
//   - Doc: docs/<name>.md, optionally followed by quoted section titles
//     (docs/samplers.md, "Failed trials"); the file must exist in docs/ and
//     each title must begin one of its headings (Markdown's ` and * and a
//     leading section number ignored).
//   - Data set: ../shared/data/<name>, or ../shared/data/{nb201, fcnet}.
//   - Repository: "reference code: <owner>/<name>" and "<owner>/<name>#N".
//   - Issue: "issue N", "issues 2 and 3" (boa's tracker; another project's
//     issue is written <owner>/<name>#N).
//   - Paper: a list of surnames ending in "et al." (Auer et al. 2002, Ru,
//     Lyle et al.), two surnames joined by "&" (Klein & Hutter 2019), or by
//     "and" when a year or a quoted title follows (Joe and Kuo,
//     "Constructing ..."); the year may be in brackets or after a one-word
//     venue (Alvi, Ru et al., ICML 2019). Or one surname and a year that
//     ends the reference, after "[", "(", ";", "after", "see" or "by"
//     ([Sobol 1967], after Lizotte 2008;). The key is the first surname and
//     the year; a citation without a year matches any paper of that first
//     author.
//
// A "spec §N" that names no spec means a spec the package names, in its
// documentation or its other comments, or one the documentation of an
// enclosing package names (sampler's for sampler/cocabo); the test fails
// when there is none.
//
// docs/references.md defines the keys: every backticked word in the first
// cell of a table row, of the kind named by the level-2 heading above the
// table (Seeds, Specifications, Project documents, Data sets, Papers,
// Reference code, Issues). A paper's key is written "Surname [et al. | &
// Surname] YEAR[a-z]". Adding a reference is adding a row there.
package citations
