package citations

import (
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// testRefs is a small references.md for the unit tests.
const testRefs = "# References\n\n" +
	"## Seeds\n\n| key | document |\n|---|---|\n| `000` | Ru |\n| `002` | Alvi |\n\n" +
	"### 000\n\n| section | about |\n|---|---|\n| §5.5 | CoCaBO |\n\n" +
	"## Specifications\n\n| key | file |\n|---|---|\n| `gp-and-acquisitions`, `gp` | gp-and-acquisitions.md |\n" +
	"| `mixed-cocabo-casmopolitan`, `mixed` | mixed-cocabo-casmopolitan.md |\n\n" +
	"## Project documents\n\n| key | file |\n|---|---|\n| `DESIGN.md` | design |\n\n" +
	"## Data sets\n\n| key | what |\n|---|---|\n| `nb201` | NAS-Bench-201 |\n| `fcnet` | FCNet |\n\n" +
	"## Papers\n\n| key | reference |\n|---|---|\n| `Auer et al. 2002` | EXP3 |\n| `Klein & Hutter 2019` | FCNet |\n| `Lizotte 2008` | thesis |\n\n" +
	"## Reference code\n\n| key | what |\n|---|---|\n| `xingchenwan/Casmopolitan` | code |\n| `optuna/optuna` | Optuna |\n\n" +
	"## Issues\n\n| key | what |\n|---|---|\n| `issue 2` | core |\n| `issue 5` | mixed |\n\n" +
	"## Software\n\n| name | what |\n|---|---|\n| `Optuna` | not a key |\n"

var testDocs = Docs{"samplers": {"Samplers", "Failed trials", "Pending trials"}, "cocabo": {"CoCaBO"}, "pruning": {"Pruning"}}

func TestExtract(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    []string // kind:key for every citation found
	}{
		{"CoCaBO's z [000 §5.4; mixed spec §1]", []string{"seed:000", "spec:mixed"}},
		{"as in [002 Eq. 4.3] and 000 Alg. 4", []string{"seed:002", "seed:000"}},
		{"the seeds 000 and 002 agree", []string{"seed:000", "seed:002"}},
		{"of thesis 001's search", []string{"seed:001"}},
		{"NAS-BOWL [000 ch. 7, Alg. 11; 003; nas-graph-bo.md §6]", []string{"seed:000", "seed:003", "spec:nas-graph-bo"}},
		{"noise 0.005 and 1e-05, n = 101 (f21)", nil},
		{"a typo [005 §1]", []string{"seed:005"}},
		{"exact [spec gp-and-acquisitions §6.2] and\n(spec async-batch §5: joint samples)", []string{"spec:gp-and-acquisitions", "spec:async-batch"}},
		{"see spec unknown-name for it", []string{"spec:unknown-name"}},
		{"the spec is silent; the spec §4 says; spec Decision", nil},
		{"[gp spec §1.3]", []string{"spec:gp"}},
		{"(../shared/specs/peers-and-benchmarks.md §2)", []string{"spec:peers-and-benchmarks"}},
		{"writes results.json and report.md", []string{"spec:report"}},
		{"the study file of DESIGN.md §2.2 [DESIGN §4]", []string{"project document:DESIGN.md", "project document:DESIGN.md"}},
		{"(docs/samplers.md, \"Failed trials\",\n\"Pruned trials\")", []string{"doc:samplers"}},
		{"the READMEs in ../shared/data/{nb201,\nhpobench-mlp,fcnet}", []string{"data set:nb201", "data set:hpobench-mlp", "data set:fcnet"}},
		{"[mixed spec §3.2; reference code: xingchenwan/Casmopolitan]", []string{"spec:mixed", "repository:xingchenwan/Casmopolitan"}},
		{"(optuna/optuna#820, #4994)", []string{"repository:optuna/optuna"}},
		{"issue 5's naming wins; Issue 3, \"Crash test\"", []string{"issue:issue 5", "issue:issue 3"}},
		{"EXP3 follows Auer et al. (2002) as restated", []string{"paper:Auer 2002"}},
		{"EXP3.M (Uchiya et\nal. 2010; [002 Alg. 6])", []string{"paper:Uchiya 2010", "seed:002"}},
		{"PLAyBOOK (Alvi, Ru et al., ICML 2019)", []string{"paper:Alvi 2019"}},
		{"claims of Ru, Lyle et al., \"Speedy performance\"", []string{"paper:Ru"}},
		{"the penaliser of González et al.", []string{"paper:González"}},
		{"benchmarks (Klein & Hutter 2019), (Dong & Yang, ICLR 2020)", []string{"paper:Klein 2019", "paper:Dong 2020"}},
		{"those of Joe and Kuo, \"Constructing Sobol sequences\"", []string{"paper:Joe"}},
		{"Sobol and Latin hypercube designs, EXP3 and DepRound", nil},
		{"[000 §2.2.1, after Lizotte 2008; spec §4.1]", []string{"seed:000", "paper:Lizotte 2008"}},
		{"(March 2024), NeurIPS 2021, (ICML 2019), (Ackley 2000 times)", nil},
		{"[Sobol 1967]; see Lizotte 2008.", []string{"paper:Sobol 1967", "paper:Lizotte 2008"}},
	} {
		var got []string
		for _, c := range Extract(tc.comment) {
			got = append(got, c.Kind.String()+":"+c.Key)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Extract(%q)\n got %q\nwant %q", tc.comment, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	refs, problems, err := ParseReferences(strings.NewReader(testRefs))
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	if got, want := refs.Keys(Seed), []string{"000", "002"}; !reflect.DeepEqual(got, want) {
		t.Errorf("seed keys %q, want %q (section tables define nothing)", got, want)
	}
	if got := refs.Keys(0); len(got) > 0 {
		t.Errorf("keys under a heading of no kind: %q", got)
	}
	for _, tc := range []struct {
		comment string
		want    []string // the problems, in order
	}{
		{"[000 §5.5; 002 Eq. 4.3; mixed spec §4.1; gp spec §1.3]", nil},
		{"[005 §1] and seed 001", []string{"unknown seed 005", "unknown seed 001"}},
		{"spec unknown-name and spec gp-and-acquisitions §2", []string{"unknown spec unknown-name"}},
		{"[mixd spec §4.1]", []string{"unknown spec mixd"}},
		{"as the whole spec §2 and as our spec §3 says", nil},
		{"results.json and report.md; samplers.md; pruning.md §2", nil},
		{"nosuch.md §2", []string{"unknown spec nosuch"}},
		{"DESIGN.md §2.5", nil},
		{"(docs/samplers.md, \"Failed trials\")", nil},
		{"(docs/samplers.md, \"Failled trials\")", []string{"docs/samplers.md has no heading \"Failled trials\""}},
		{"(docs/nosuch.md)", []string{"docs/nosuch.md does not exist"}},
		{"../shared/data/{nb201, fcnet} and ../shared/data/nb301", []string{"unknown data set nb301"}},
		{"[reference code: xingchenwan/Casmopolitan; optuna/optuna#485]", nil},
		{"[reference code: rubinxin/CoCaBO]", []string{"unknown repository rubinxin/CoCaBO"}},
		{"issues 2 and 5; issue 4", []string{"unknown issue issue 4"}},
		{"Auer et al. 2002, Auer et al.'s rate, Klein & Hutter (2019)", nil},
		{"Auer et al. 2003", []string{"unknown paper Auer 2003 (Auer is defined for 2002)"}},
		{"Kandasamy et al. 2018", []string{"unknown paper Kandasamy 2018"}},
	} {
		var got []string
		for _, c := range Extract(tc.comment) {
			if p := refs.Check(c, testDocs); p != "" {
				got = append(got, p)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q\n got %q\nwant %q", tc.comment, got, tc.want)
		}
	}
}

func TestParseReferencesRejectsBadPaperKey(t *testing.T) {
	_, problems, err := ParseReferences(strings.NewReader("## Papers\n\n| key |\n|---|\n| `Auer et al.` |\n| `issue 2` |\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 2 {
		t.Errorf("problems %q, want two keys that are not Surname YEAR", problems)
	}
}

// moduleRoot is the directory of go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}

// comment is the text of a comment group and the line each of its lines
// starts on.
type comment struct {
	text  string
	lines []int
}

// line returns the line of a byte offset in c.text.
func (c comment) line(off int) int {
	return c.lines[strings.Count(c.text[:off], "\n")]
}

// parent returns the directory above a slash-separated directory, "." at
// the top.
func parent(dir string) string { return filepath.ToSlash(filepath.Dir(dir)) }

// lineText returns the line of c.text that holds a byte offset, trimmed.
func (c comment) lineText(off int) string {
	return strings.TrimSpace(strings.Split(c.text, "\n")[strings.Count(c.text[:off], "\n")])
}

// comments returns the comment groups of a Go file: consecutive // lines
// are one group, as are the lines of a /* */ comment.
func comments(src []byte) []comment {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	s.Init(file, src, nil, scanner.ScanComments)
	var out []comment
	lastLine := -2
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		line := file.Line(pos)
		var text string
		if strings.HasPrefix(lit, "//") {
			text = strings.TrimPrefix(lit, "//")
		} else {
			text = strings.TrimSuffix(strings.TrimPrefix(lit, "/*"), "*/")
		}
		n := strings.Count(text, "\n")
		if strings.HasPrefix(lit, "//") && line == lastLine+1 && len(out) > 0 {
			g := &out[len(out)-1]
			g.text += "\n" + text
			g.lines = append(g.lines, line)
		} else {
			g := comment{text: text}
			for i := 0; i <= n; i++ {
				g.lines = append(g.lines, line+i)
			}
			out = append(out, g)
		}
		lastLine = line + n
	}
	return out
}

var (
	reSpecSection = regexp.MustCompile(`\b[Ss]pec\s*§`)
	reWordBefore  = regexp.MustCompile(`([a-z][a-z0-9-]*)\s+$`)
)

// bareSpec returns the offset of the first "spec §N" in text that names no
// spec ("the spec §4", not "mixed spec §4"), or -1.
func bareSpec(text string, refs *References) int {
	for _, l := range reSpecSection.FindAllStringIndex(text, -1) {
		if m := reWordBefore.FindStringSubmatch(text[:l[0]]); m != nil && refs.keys[Spec][m[1]] {
			continue
		}
		return l[0]
	}
	return -1
}

func TestBareSpec(t *testing.T) {
	refs, _, err := ParseReferences(strings.NewReader(testRefs))
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]int{
		"[mixed spec §4.1; gp spec §2]": -1,
		"spec gp-and-acquisitions §4":   -1,
		"as the spec §4 says":           7,
		"Spec §6.2: beyond":             0,
	} {
		if got := bareSpec(text, refs); got != want {
			t.Errorf("bareSpec(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestRepositoryCitations extracts the citations from every comment of
// every Go file of the module and fails on each one docs/references.md does
// not define. With -v it lists the keys in use and how often.
func TestRepositoryCitations(t *testing.T) {
	root := moduleRoot(t)
	f, err := os.Open(filepath.Join(root, "docs", "references.md"))
	if err != nil {
		t.Fatal(err)
	}
	refs, problems, err := ParseReferences(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("docs/references.md: %s", p)
	}
	docs := Docs{}
	mds, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range mds {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[strings.TrimSuffix(filepath.Base(p), ".md")] = ParseHeadings(f)
		f.Close()
	}

	used := map[string]int{}
	files := 0
	// A bare "spec §N" needs a spec named in its package's comments or in
	// the documentation of an enclosing package (sampler/doc.go for a
	// sub-package of sampler).
	bare := map[string]string{}   // directory → where a bare "spec §N" is
	docSpec := map[string]bool{}  // directory → its package doc names a spec
	someSpec := map[string]bool{} // directory → a comment names a spec
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		dir := filepath.ToSlash(filepath.Dir(rel))
		if f, err := parser.ParseFile(fset, path, src, parser.PackageClauseOnly|parser.ParseComments); err == nil && f.Doc != nil {
			for _, cit := range Extract(f.Doc.Text()) {
				if cit.Kind == Spec && refs.keys[Spec][cit.Key] {
					docSpec[dir] = true
				}
			}
		}
		for _, c := range comments(src) {
			if off := bareSpec(c.text, refs); off >= 0 && bare[dir] == "" {
				bare[dir] = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), c.line(off))
			}
			for _, cit := range Extract(c.text) {
				if cit.Kind == Spec && refs.keys[Spec][cit.Key] {
					someSpec[dir] = true
				}
				if p := refs.Check(cit, docs); p != "" {
					t.Errorf("%s:%d: %s, in %q; decode it in docs/references.md or fix the comment",
						filepath.ToSlash(rel), c.line(cit.Offset), p, c.lineText(cit.Offset))
					continue
				}
				kind := cit.Kind
				if kind == Spec && !refs.keys[Spec][cit.Key] {
					kind = Doc // a bare docs file name: "pruning.md §2"
				}
				if cit.Strict || refs.keys[cit.Kind][cit.Key] {
					used[fmt.Sprintf("%-16s %s", kind, cit.Key)]++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no Go files found under", root)
	}
	for dir, where := range bare {
		named := someSpec[dir]
		for d := parent(dir); !named && d != "."; d = parent(d) {
			named = docSpec[d]
		}
		if !named {
			t.Errorf("%s: \"spec §N\" names no spec, and neither does any comment of %s nor an enclosing package's documentation; write spec <name> §N, or name the spec in the package comment", where, dir)
		}
	}
	if testing.Verbose() {
		var keys []string
		for k := range used {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%4d  %s", used[k], k)
		}
	}
}
