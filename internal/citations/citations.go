package citations

import (
	"bufio"
	"io"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Kind is the kind of thing a citation points at.
type Kind int

// The kinds of citation, in the order of the sections of docs/references.md.
const (
	Seed   Kind = iota + 1 // a seed document, 000–004
	Spec                   // a specification in ../shared/specs
	Design                 // ../shared/DESIGN.md
	Doc                    // a file in the repository's docs/
	Data                   // a data set in ../shared/data
	Paper                  // an author–year reference
	Repo                   // a public repository, owner/name
	Issue                  // an issue of the project's tracker
)

var kindNames = map[Kind]string{
	Seed: "seed", Spec: "spec", Design: "project document", Doc: "doc",
	Data: "data set", Paper: "paper", Repo: "repository", Issue: "issue",
}

func (k Kind) String() string { return kindNames[k] }

// Citation is one key found in a comment.
type Citation struct {
	Kind Kind
	// Key is the key as it is looked up: "000", "gp-and-acquisitions",
	// "DESIGN.md", "cocabo" (docs/cocabo.md), "nb201", "Auer 2002",
	// "xingchenwan/Casmopolitan", "issue 5". A paper's key is its first
	// author's surname and, when the citation gives one, the year.
	Key string
	// Sections are the quoted section titles after a docs/ file
	// (docs/samplers.md, "Failed trials"), which must be headings there.
	Sections []string
	// Strict is false for a name that is a key only if it is defined
	// (a bare file.md, or "word spec §" outside brackets): an unknown one
	// is ordinary prose, not a typo.
	Strict bool
	// Offset is the byte offset of the match in the text given to Extract.
	Offset int
	// Text is the matched text, for messages.
	Text string
}

const (
	// name is a surname: "Auer", "González", "McLeod", "Park-Miller".
	name = `(?:Mc|O')?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?`
	// yearTail is what may follow an author list: a year, in brackets or
	// after a one-word venue ("ICML 2019").
	yearTail = `(?:'s)?,?\s*\(?(?:[A-Z][A-Za-z]*\s+)?((?:19|20)\d\d)[a-z]?\b`
	// specName is a specification name: lower case words joined by hyphens.
	specName = `[a-z][a-z0-9]*(?:-[a-z0-9]+)*`
)

var (
	// A seed is any number of three digits starting with 0 that stands
	// alone: "[000 §5.5]", "seeds 000 and 002", "001 gives", "[003]",
	// "000–004"; not "0.005", "1e-05", "f015", "1_000" or "0123".
	reSeed = regexp.MustCompile(`(?:^|[^\w.,:/+-])(0\d\d)(\.?\w)?`)

	// "spec gp-and-acquisitions §4", "spec mixed §7.4", "spec async-batch-playbook.md"
	reSpecAfter = regexp.MustCompile(`\bspecs?\s+(` + specName + `)(\.md)?(\s*§)?`)
	// "[mixed spec §4.1", "gp spec §1.3"
	reSpecBefore = regexp.MustCompile(`(^|[\[(;]\s*|[^\w-])(` + specName + `)\s+spec\s*§`)
	// "../shared/specs/peers-and-benchmarks.md"
	reSpecPath = regexp.MustCompile(`\.\./shared/specs/([\w-]+)\.md`)
	// "nas-graph-bo.md §8", "peers-and-benchmarks.md, "Running the Optuna peer"", "DESIGN.md"
	reBareMD = regexp.MustCompile(`(?:^|[^\w/.-])([A-Za-z0-9][\w-]*)\.md\b(\s*§|,\s*")?`)
	// "[DESIGN §4]"
	reDesign = regexp.MustCompile(`\bDESIGN\s*§`)
	// "docs/samplers.md, "Failed trials", "Pruned trials""
	reDoc     = regexp.MustCompile(`(?:^|[^\w/.-])docs/([\w-]+)\.md((?:,?\s*"[^"\n]+")*)`)
	reQuoted  = regexp.MustCompile(`"([^"\n]+)"`)
	reData    = regexp.MustCompile(`\.\./shared/data/(\{[^}]*\}|[a-z0-9][a-z0-9_-]*)`)
	reRepoRef = regexp.MustCompile(`reference code:?\s+([\w.-]+/[\w.-]*[\w-])`)
	reRepoNum = regexp.MustCompile(`\b([\w.-]+/[\w.-]*[\w-])#\d+`)
	reIssue   = regexp.MustCompile(`\b[Ii]ssues?\s+#?(\d+)\b((?:\s*(?:,|and)\s*#?\d+\b)*)`)
	reDigits  = regexp.MustCompile(`\d+`)

	// "Auer et al. (2002)", "Ru, Lyle et al.", "Alvi, Ru et al., ICML 2019"
	reEtAl = regexp.MustCompile(`(` + name + `)(?:,\s+` + name + `)*\s+et\s+al\.?(?:` + yearTail + `)?`)
	// "Marsaglia & Tsang (2000", "Joe and Kuo, "Constructing ...""
	reAnd = regexp.MustCompile(`(` + name + `)(?:,\s+` + name + `)*,?\s+(&|and)\s+` + name + `(?:` + yearTail + `|(,\s*")|)`)
	// "[Sobol 1967]", "after Lizotte 2008;", "(Kandasamy 2018)": the year
	// ends the reference, so "(Ackley 2000 times)" is not one.
	reSingle = regexp.MustCompile(`(?:[\[(;]|\bafter\b|\bsee\b|\bby\b)\s*(` + name + `),?\s+((?:19|20)\d\d)[a-z]?(?:\s*[\]);,.:]|\s*$)`)
)

// notSurnames are capitalised words that may stand before a year.
var notSurnames = map[string]bool{
	"January": true, "February": true, "March": true, "April": true, "May": true, "June": true,
	"July": true, "August": true, "September": true, "October": true, "November": true, "December": true,
	"Spring": true, "Summer": true, "Autumn": true, "Winter": true, "Python": true, "Version": true,
}

// proseBeforeSpec are words that stand before "spec §" in prose ("the
// spec §4") rather than naming a spec.
var proseBeforeSpec = map[string]bool{
	"the": true, "this": true, "that": true, "its": true, "a": true, "an": true, "each": true,
	"every": true, "one": true, "same": true, "whole": true, "our": true, "their": true,
	"which": true, "see": true, "per": true, "of": true, "and": true, "or": true, "in": true,
}

// Extract returns the citations in the text of one comment (several lines
// of a comment group may be joined with newlines: a citation may break
// across lines). The grammar is described in the package documentation.
func Extract(text string) []Citation {
	var out []Citation
	add := func(k Kind, key string, strict bool, off int, m string) {
		out = append(out, Citation{Kind: k, Key: key, Strict: strict, Offset: off, Text: m})
	}
	sub := func(s string, loc []int, i int) string {
		if loc[2*i] < 0 {
			return ""
		}
		return s[loc[2*i]:loc[2*i+1]]
	}

	// Seeds.
	for _, l := range reSeed.FindAllStringSubmatchIndex(text, -1) {
		if l[4] < 0 {
			add(Seed, sub(text, l, 1), true, l[2], text[l[2]:l[3]])
		}
	}

	// Specifications, project documents and docs.
	for _, l := range reSpecAfter.FindAllStringSubmatchIndex(text, -1) {
		n := sub(text, l, 1)
		if strings.Contains(n, "-") || sub(text, l, 2) != "" || sub(text, l, 3) != "" {
			add(Spec, n, true, l[2], text[l[0]:l[1]])
		}
	}
	for _, l := range reSpecBefore.FindAllStringSubmatchIndex(text, -1) {
		lead, n := sub(text, l, 1), sub(text, l, 2)
		if proseBeforeSpec[n] {
			continue
		}
		bracketed := l[2] == 0 || strings.ContainsAny(lead, "[(;")
		add(Spec, n, bracketed || strings.Contains(n, "-"), l[4], text[l[4]:l[1]])
	}
	for _, l := range reSpecPath.FindAllStringSubmatchIndex(text, -1) {
		add(Spec, sub(text, l, 1), true, l[0], text[l[0]:l[1]])
	}
	for _, l := range reBareMD.FindAllStringSubmatchIndex(text, -1) {
		n := sub(text, l, 1)
		switch n {
		case "README":
			continue
		case "DESIGN":
			add(Design, "DESIGN.md", true, l[2], text[l[2]:l[1]])
			continue
		}
		// A spec's or a doc's file name; strict only when a section follows.
		add(Spec, n, sub(text, l, 2) != "", l[2], text[l[2]:l[1]])
	}
	for _, l := range reDesign.FindAllStringIndex(text, -1) {
		add(Design, "DESIGN.md", true, l[0], text[l[0]:l[1]])
	}
	for _, l := range reDoc.FindAllStringSubmatchIndex(text, -1) {
		c := Citation{Kind: Doc, Key: sub(text, l, 1), Strict: true, Offset: l[2], Text: text[l[2]:l[1]]}
		for _, q := range reQuoted.FindAllStringSubmatch(sub(text, l, 2), -1) {
			c.Sections = append(c.Sections, strings.Join(strings.Fields(q[1]), " "))
		}
		out = append(out, c)
	}

	// Data sets, repositories, issues.
	for _, l := range reData.FindAllStringSubmatchIndex(text, -1) {
		for _, n := range strings.Split(strings.Trim(sub(text, l, 1), "{}"), ",") {
			if n = strings.TrimSpace(n); n != "" {
				add(Data, n, true, l[0], text[l[0]:l[1]])
			}
		}
	}
	for _, re := range []*regexp.Regexp{reRepoRef, reRepoNum} {
		for _, l := range re.FindAllStringSubmatchIndex(text, -1) {
			add(Repo, strings.TrimRight(sub(text, l, 1), "."), true, l[2], text[l[0]:l[1]])
		}
	}
	for _, l := range reIssue.FindAllStringSubmatchIndex(text, -1) {
		m := text[l[0]:l[1]]
		for _, n := range reDigits.FindAllString(m, -1) {
			add(Issue, "issue "+n, true, l[0], m)
		}
	}

	// Papers.
	for _, l := range reEtAl.FindAllStringSubmatchIndex(text, -1) {
		add(Paper, paperKey(sub(text, l, 1), sub(text, l, 2)), true, l[0], text[l[0]:l[1]])
	}
	for _, l := range reAnd.FindAllStringSubmatchIndex(text, -1) {
		year, quote := sub(text, l, 3), sub(text, l, 4)
		if sub(text, l, 2) == "and" && year == "" && quote == "" {
			continue
		}
		add(Paper, paperKey(sub(text, l, 1), year), true, l[0], text[l[0]:l[1]])
	}
	for _, l := range reSingle.FindAllStringSubmatchIndex(text, -1) {
		n := sub(text, l, 1)
		if notSurnames[n] {
			continue
		}
		add(Paper, paperKey(n, sub(text, l, 2)), true, l[2], text[l[2]:l[1]])
	}

	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return dedupe(out)
}

// dedupe drops a citation that repeats the kind and key of one found by
// another rule in an overlapping place (seed 000 §2 matches two rules).
func dedupe(cs []Citation) []Citation {
	var out []Citation
	for _, c := range cs {
		dup := false
		for _, o := range out {
			if o.Kind == c.Kind && o.Key == c.Key && overlap(o, c) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

func overlap(a, b Citation) bool {
	return a.Offset < b.Offset+len(b.Text) && b.Offset < a.Offset+len(a.Text)
}

func paperKey(surname, year string) string {
	if year == "" {
		return surname
	}
	return surname + " " + year
}

// References is the set of keys docs/references.md defines.
type References struct {
	keys map[Kind]map[string]bool
	// papers maps a surname to the years of the papers it heads.
	papers map[string][]string
}

// Keys returns the defined keys of kind k, sorted.
func (r *References) Keys(k Kind) []string {
	var out []string
	for key := range r.keys[k] {
		out = append(out, key)
	}
	sort.Strings(out)
	return out
}

var (
	reHeading  = regexp.MustCompile(`^(#{2,6})\s+(.*)$`)
	reBacktick = regexp.MustCompile("`([^`]+)`")
	rePaperDef = regexp.MustCompile(`^(` + name + `)(?:\s+et al\.|\s+(?:&|and)\s+` + name + `)?\s+((?:19|20)\d\d)[a-z]?$`)
)

// sectionKind gives the kind of the keys defined under a level-2 heading
// of docs/references.md.
func sectionKind(heading string) Kind {
	h := strings.ToLower(heading)
	switch {
	case strings.Contains(h, "seed"):
		return Seed
	case strings.Contains(h, "specification"):
		return Spec
	case strings.Contains(h, "project document"):
		return Design
	case strings.Contains(h, "data"):
		return Data
	case strings.Contains(h, "paper"):
		return Paper
	case strings.Contains(h, "reference code"), strings.Contains(h, "repositor"):
		return Repo
	case strings.Contains(h, "issue"):
		return Issue
	}
	return 0
}

// ParseReferences reads docs/references.md. A key is a `backticked` word in
// the first cell of a table row; the level-2 heading above the table says
// its kind (Seeds, Specifications, Project documents, Data, Papers,
// Reference code, Issues). Tables under other headings define nothing.
func ParseReferences(r io.Reader) (*References, []string, error) {
	refs := &References{keys: map[Kind]map[string]bool{}, papers: map[string][]string{}}
	var problems []string
	kind := Kind(0)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := reHeading.FindStringSubmatch(line); m != nil {
			if len(m[1]) == 2 {
				kind = sectionKind(m[2])
			}
			continue
		}
		if kind == 0 || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for _, m := range reBacktick.FindAllStringSubmatch(cells[0], -1) {
			key := m[1]
			if kind == Paper {
				p := rePaperDef.FindStringSubmatch(key)
				if p == nil {
					problems = append(problems, "paper key "+key+" is not Surname [et al. | & Surname] YEAR")
					continue
				}
				refs.papers[p[1]] = append(refs.papers[p[1]], p[2])
				key = p[1] + " " + p[2]
			}
			if kind == Issue && !strings.HasPrefix(key, "issue ") {
				problems = append(problems, "issue key "+key+" is not \"issue N\"")
			}
			if refs.keys[kind] == nil {
				refs.keys[kind] = map[string]bool{}
			}
			refs.keys[kind][key] = true
		}
	}
	return refs, problems, sc.Err()
}

// Docs is what the repository's docs/ holds: for each file name without
// .md, its headings.
type Docs map[string][]string

// ParseHeadings returns the Markdown headings of a document, without the #s.
func ParseHeadings(r io.Reader) []string {
	var hs []string
	sc := bufio.NewScanner(r)
	fence := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence {
			continue
		}
		if m := reHeading.FindStringSubmatch(line); m != nil || strings.HasPrefix(line, "# ") {
			hs = append(hs, strings.TrimSpace(strings.TrimLeft(line, "#")))
		}
	}
	return hs
}

// Check returns what is wrong with a citation, or "" when it resolves.
func (r *References) Check(c Citation, docs Docs) string {
	switch c.Kind {
	case Paper:
		surname, year, _ := strings.Cut(c.Key, " ")
		years, ok := r.papers[surname]
		if !ok {
			return "unknown paper " + c.Key
		}
		if year == "" {
			return ""
		}
		for _, y := range years {
			if y == year {
				return ""
			}
		}
		return "unknown paper " + c.Key + " (" + surname + " is defined for " + strings.Join(years, ", ") + ")"
	case Doc:
		hs, ok := docs[c.Key]
		if !ok {
			return "docs/" + c.Key + ".md does not exist"
		}
		for _, s := range c.Sections {
			if !hasHeading(hs, s) {
				return "docs/" + c.Key + ".md has no heading \"" + s + "\""
			}
		}
		return ""
	case Spec:
		if r.keys[Spec][c.Key] || r.keys[Spec][c.Key+".md"] {
			return ""
		}
		if _, ok := docs[c.Key]; ok && !strings.HasPrefix(c.Text, "spec") {
			return "" // a bare docs file name: "samplers.md", "pruning.md §2"
		}
		if !c.Strict {
			return ""
		}
		return "unknown spec " + c.Key
	}
	if r.keys[c.Kind][c.Key] {
		return ""
	}
	return "unknown " + c.Kind.String() + " " + c.Key
}

// hasHeading reports whether a heading of a document starts with s (after
// any section number), ignoring case and Markdown's ` and *.
func hasHeading(headings []string, s string) bool {
	s = strings.ToLower(s)
	for _, h := range headings {
		h = strings.NewReplacer("`", "", "*", "").Replace(h)
		h = strings.ToLower(strings.TrimLeftFunc(h, func(r rune) bool {
			return unicode.IsDigit(r) || r == '.' || r == ' ' || r == '§'
		}))
		if strings.HasPrefix(h, s) {
			return true
		}
	}
	return false
}
