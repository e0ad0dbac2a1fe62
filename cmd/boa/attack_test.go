package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/internal/python"
)

// sklearnPython is an interpreter that imports scikit-learn (Debian's,
// where CI installs python3-sklearn), or the test is skipped.
func sklearnPython(t *testing.T) string {
	t.Helper()
	py, err := python.Find("sklearn")
	if err != nil {
		t.Skipf("examples/attack/victim.py needs scikit-learn: %v", err)
	}
	return py
}

// TestAttackImagePythonVictim attacks examples/attack/victim.py as the
// README does: held-out digits, untargeted, δ_max 0.3; at least one attack
// succeeds within 100 queries, its PNG is written and classified as the
// summary says, and the query log has one line per query.
func TestAttackImagePythonVictim(t *testing.T) {
	py := sklearnPython(t)
	script, _ := filepath.Abs(filepath.Join("..", "..", "examples", "attack", "victim.py"))
	dir := t.TempDir()
	successes := 0
	for i := range 3 {
		png := filepath.Join(dir, "digit.png")
		if out, err := exec.Command(py, script, "--write-png", strings.Repeat("1", i+1), png).CombinedOutput(); err != nil {
			t.Fatalf("--write-png: %v %s", err, out)
		}
		adv, log := filepath.Join(dir, "adv.png"), filepath.Join(dir, "queries.jsonl")
		os.Remove(log)
		out, err := boa(t, "attack", "image", "--image", png, "--budget", "100", "--candidates", "2000",
			"--out", adv, "--queries", log, "--json", "--", py, script)
		if err != nil {
			t.Fatalf("boa attack image: %v\n%s", err, out)
		}
		var s attackSummary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if s.Queries < 1 || s.Queries > 100 || *s.Linf > 0.3+1e-9 || s.Out != adv {
			t.Fatalf("summary %+v", s)
		}
		if n := lines(t, log); n != s.Queries {
			t.Fatalf("%d lines in the query log, %d queries", n, s.Queries)
		}
		m, err := attack.ReadImage(adv)
		if err != nil || m.H != 8 || m.W != 8 {
			t.Fatalf("the adversarial PNG: %v %+v", err, m)
		}
		if s.Success {
			successes++
		}
	}
	if successes == 0 {
		t.Fatal("no attack of 3 on the digits network succeeded within 100 queries")
	}
}

func lines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
	}
	return n
}

// badVictim answers two queries on an 8×8 image (class 0 for the clean
// one), then misbehaves as mode says: crash, hang or garbage.
const badVictim = `
import json, sys, time
mode = sys.argv[1]
for n, line in enumerate(sys.stdin):
    q = json.loads(line)
    if n == 3:
        if mode == "crash":
            print("model exploded", file=sys.stderr)
            sys.exit(3)
        if mode == "hang":
            time.sleep(60)
        if mode == "garbage":
            print("not json at all", flush=True)
            continue
    s = min(1.0, sum(q["pixels"]) / 64)
    print(json.dumps({"scores": [0.9 - 0.5 * s, 0.1 + 0.5 * s]}), flush=True)
`

// TestAttackImageBadVictims: a victim that crashes, hangs or answers
// garbage on its 3rd query ends the attack with an error saying so; the
// two queries answered are kept, in the log and in the image written.
func TestAttackImageBadVictims(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for the misbehaving victims")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "bad.py")
	img := filepath.Join(dir, "img.json")
	if err := os.WriteFile(script, []byte(badVictim), 0o644); err != nil {
		t.Fatal(err)
	}
	pix, _ := json.Marshal(attack.Image{H: 8, W: 8, C: 1, Pix: make([]float64, 64)}.JSON())
	if err := os.WriteFile(img, pix, 0o644); err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[string]string{
		"crash":   "exited with status 3",
		"hang":    "longer than",
		"garbage": "not json at all",
	} {
		adv, log := filepath.Join(dir, mode+".json"), filepath.Join(dir, mode+".jsonl")
		// 5 s: long enough for python3 to start on a loaded machine.
		out, err := boa(t, "attack", "image", "--image", img, "--budget", "50", "--timeout", "5s",
			"--out", adv, "--queries", log, "--", py, script, mode)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "after 2 queries") {
			t.Fatalf("%s: error %v, want one saying %q after 2 queries\n%s", mode, err, want, out)
		}
		if n := lines(t, log); n != 2 {
			t.Fatalf("%s: %d lines in the query log, want 2", mode, n)
		}
		if m, err := attack.ReadImage(adv); err != nil || m.Len() != 64 {
			t.Fatalf("%s: the best image of the 2 queries: %v", mode, err)
		}
		if !strings.Contains(out, "FAILED after 2 of 50 queries") {
			t.Fatalf("%s: the summary does not report the 2 queries:\n%s", mode, out)
		}
	}
}

// TestAttackGraphPythonVictim: GRABNEL strips a node of the ring-with-chords
// graph of all its edges (2 flips) against examples/attack/graph_victim.py
// within 3 allowed flips; the adversarial edge list is written and differs
// from the clean one by the flips reported.
func TestAttackGraphPythonVictim(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for examples/attack/graph_victim.py")
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "examples", "attack", "graph_victim.py"))
	dir := t.TempDir()
	var edges [][2]int
	for i := range 12 { // a ring: every node has degree 2, 3 for the chords' ends
		edges = append(edges, [2]int{min(i, (i+1)%12), max(i, (i+1)%12)})
	}
	edges = append(edges, [2]int{0, 6}, [2]int{3, 9})
	g, err := attack.NewGraph(12, edges)
	if err != nil {
		t.Fatal(err)
	}
	file, adv := filepath.Join(dir, "g.txt"), filepath.Join(dir, "adv.txt")
	f, _ := os.Create(file)
	if err := attack.WriteGraph(f, g); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, method := range []string{"grabnel", "random"} {
		out, err := boa(t, "attack", "graph", "--graph", file, "--method", method, "--delta", "3", "--budget", "150",
			"--out", adv, "--json", "--", py, script)
		if err != nil {
			t.Fatalf("%s: %v\n%s", method, err, out)
		}
		var s attackSummary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		r, _ := os.Open(adv)
		a, err := attack.ReadGraph(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		diff := 0
		for u := range 12 {
			for v := u + 1; v < 12; v++ {
				if a.Has(u, v) != g.Has(u, v) {
					diff++
				}
			}
		}
		if s.Flips == nil || diff != len(*s.Flips) || diff > 3 || s.Delta != 3 || s.Queries > 150 {
			t.Fatalf("%s: summary %+v, the written graph differs by %d flips", method, s, diff)
		}
		if method == "grabnel" && !s.Success {
			t.Fatalf("grabnel did not isolate a node in 150 queries: %+v", s)
		}
	}
}
