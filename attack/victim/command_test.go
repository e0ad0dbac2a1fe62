//go:build linux

package victim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boaopt/boa/attack"
)

// The test binary doubles as the victim: run with BOA_VICTIM_MODE=<mode>
// it plays that mode on its stdin and stdout and exits. The tests set the
// variable with t.Setenv before Start, and the child inherits it.
const modeEnv = "BOA_VICTIM_MODE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(modeEnv); mode != "" {
		os.Exit(play(mode))
	}
	os.Exit(m.Run())
}

// query is what the helper victim reads: an image or a graph.
type query struct {
	Shape  *[3]int   `json:"shape"`
	Pixels []float64 `json:"pixels"`
	Nodes  *int      `json:"nodes"`
	Edges  [][2]int  `json:"edges"`
}

// answer scores q so that the test can tell the input arrived intact: an
// image gives [Σ pixels, H, W, C], a graph [N, edges, Σ (u+1)(v+1)].
func answer(q query) (map[string]any, error) {
	switch {
	case q.Shape != nil:
		h, w, c := q.Shape[0], q.Shape[1], q.Shape[2]
		if len(q.Pixels) != h*w*c {
			return nil, fmt.Errorf("%d pixels for shape %v", len(q.Pixels), *q.Shape)
		}
		sum := 0.0
		for _, v := range q.Pixels {
			sum += v
		}
		return map[string]any{"scores": []float64{sum, float64(h), float64(w), float64(c)}}, nil
	case q.Nodes != nil:
		s := 0
		for _, e := range q.Edges {
			s += (e[0] + 1) * (e[1] + 1)
		}
		return map[string]any{"scores": []float64{float64(*q.Nodes), float64(len(q.Edges)), float64(s)}}, nil
	}
	return nil, fmt.Errorf("neither an image nor a graph")
}

func play(mode string) int {
	in := bufio.NewReader(os.Stdin) // lines longer than a Scanner's 64 KB
	out := bufio.NewWriter(os.Stdout)
	reply := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	switch mode {
	case "slowstart":
		time.Sleep(300 * time.Millisecond) // loading a model
	case "hang":
		// A child in the group, as a wrapper script's interpreter would be:
		// the timeout must kill it too. Its pid goes to stderr.
		sleep := exec.Command("sleep", "600")
		if err := sleep.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Fprintf(os.Stderr, "child %d\n", sleep.Process.Pid)
	case "deaf":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	}
	for n := 1; ; n++ {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if mode == "deaf" {
				fmt.Fprintln(os.Stderr, "stdin closed; staying anyway")
				time.Sleep(10 * time.Minute)
			}
			return 0
		}
		switch {
		case mode == "hang":
			fmt.Fprintln(os.Stderr, "thinking forever")
			time.Sleep(10 * time.Minute)
		case mode == "crash" && n == 3:
			fmt.Fprintln(os.Stderr, "Traceback (most recent call last):")
			fmt.Fprintln(os.Stderr, "ValueError: model exploded")
			return 3
		case mode == "garbage":
			fmt.Fprintln(out, "predicted class 7 with confidence 0.9")
			out.Flush()
			continue
		case mode == "error" && n == 1:
			reply(map[string]string{"error": "cannot score this one"})
			continue
		case mode == "nan":
			fmt.Fprintln(out, `{"scores": [0.5, NaN]}`)
			out.Flush()
			continue
		case mode == "empty":
			reply(map[string]any{"scores": []float64{}})
			continue
		}
		var q query
		if err := json.Unmarshal(line, &q); err != nil {
			reply(map[string]string{"error": err.Error()})
			continue
		}
		a, err := answer(q)
		if err != nil {
			reply(map[string]string{"error": err.Error()})
			continue
		}
		reply(a)
	}
}

// startImage starts the test binary as an image victim in mode.
func startImage(t *testing.T, mode string, o Options) *Command[attack.Image] {
	t.Helper()
	t.Setenv(modeEnv, mode)
	c, err := StartImage([]string{self(t)}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// self is the test binary, by an absolute path (the tests change Dir).
func self(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func testImage(h, w, c int) attack.Image {
	m := attack.Image{H: h, W: w, C: c, Pix: make([]float64, h*w*c)}
	for i := range m.Pix {
		m.Pix[i] = float64(i%7) / 8
	}
	return m
}

func wantImageScores(t *testing.T, p []float64, m attack.Image) {
	t.Helper()
	sum := 0.0
	for _, v := range m.Pix {
		sum += v
	}
	want := []float64{sum, float64(m.H), float64(m.W), float64(m.C)}
	if len(p) != len(want) {
		t.Fatalf("scores %v, want %v", p, want)
	}
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-9*max(1, math.Abs(want[i])) {
			t.Fatalf("scores %v, want %v", p, want)
		}
	}
}

// gone reports whether pid is no longer running (absent, or a zombie that
// nobody reaps, as a container's init may leave it).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && (b[i+2] == 'Z' || b[i+2] == 'X')
}

func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !gone(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestImageVictim(t *testing.T) {
	c := startImage(t, "ok", Options{})
	for _, m := range []attack.Image{testImage(8, 8, 1), testImage(2, 3, 3), testImage(120, 100, 3)} {
		// The last one is a line of some 700 KB each way but back.
		p, err := c.Scores(m)
		if err != nil {
			t.Fatal(err)
		}
		wantImageScores(t, p, m)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, c.cmd.Process.Pid, "the victim")
}

func TestGraphVictim(t *testing.T) {
	t.Setenv(modeEnv, "ok")
	c, err := StartGraph([]string{self(t)}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g, err := attack.NewGraph(5, [][2]int{{0, 1}, {3, 1}, {2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []attack.Graph{g, {N: 3}} { // {N: 3}: no edges, sent as []
		p, err := c.Scores(g)
		if err != nil {
			t.Fatal(err)
		}
		s := 0
		for _, e := range g.Edges {
			s += (e[0] + 1) * (e[1] + 1)
		}
		if want := []float64{float64(g.N), float64(len(g.Edges)), float64(s)}; fmt.Sprint(p) != fmt.Sprint(want) {
			t.Errorf("scores %v, want %v", p, want)
		}
	}
}

func TestSlowStart(t *testing.T) {
	c := startImage(t, "slowstart", Options{Timeout: 5 * time.Second})
	m := testImage(4, 4, 1)
	p, err := c.Scores(m)
	if err != nil {
		t.Fatal(err)
	}
	wantImageScores(t, p, m)

	// The first query's clock includes the start-up.
	c = startImage(t, "slowstart", Options{Timeout: 50 * time.Millisecond})
	if _, err := c.Scores(m); err == nil || !strings.Contains(err.Error(), "took longer than 50ms") {
		t.Fatalf("a start-up longer than the timeout: error %v", err)
	}
}

func TestCrash(t *testing.T) {
	var stderr syncBuffer
	c := startImage(t, "crash", Options{Stderr: &stderr})
	m := testImage(3, 3, 1)
	for i := range 2 {
		if _, err := c.Scores(m); err != nil {
			t.Fatalf("query %d: %v", i+1, err)
		}
	}
	_, err := c.Scores(m)
	if err == nil {
		t.Fatal("no error from a victim that exited")
	}
	want := fmt.Sprintf(`victim %q: exited with status 3 before answering query 3; its stderr ends: Traceback (most recent call last): | ValueError: model exploded`, c.name)
	if err.Error() != want {
		t.Fatalf("error\n %s\nwant\n %s", err, want)
	}
	if !strings.Contains(stderr.String(), "ValueError: model exploded\n") {
		t.Errorf("stderr not copied: %q", stderr.String())
	}
	// Sticky: the same error at once.
	start := time.Now()
	if _, err2 := c.Scores(m); err2 != err {
		t.Errorf("the query after a crash: %v, want the same error", err2)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("the query after a crash took %v", d)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after a crash already reported: %v", err)
	}
}

func TestHang(t *testing.T) {
	var stderr syncBuffer
	c := startImage(t, "hang", Options{Timeout: 200 * time.Millisecond, Stderr: &stderr})
	start := time.Now()
	_, err := c.Scores(testImage(2, 2, 1))
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a 200ms timeout took %v", d)
	}
	if err == nil || !strings.Contains(err.Error(), "query 1 took longer than 200ms: killed it") ||
		!strings.Contains(err.Error(), "thinking forever") {
		t.Fatalf("error %v", err)
	}
	waitGone(t, c.cmd.Process.Pid, "the victim")
	var child int
	if _, err := fmt.Sscanf(stderr.String(), "child %d", &child); err != nil {
		t.Fatalf("no child pid in the stderr %q", stderr.String())
	}
	waitGone(t, child, "the victim's child")
	if _, err2 := c.Scores(testImage(2, 2, 1)); err2 != err {
		t.Errorf("after a timeout: %v, want the same error", err2)
	}
}

func TestGarbage(t *testing.T) {
	c := startImage(t, "garbage", Options{})
	_, err := c.Scores(testImage(2, 2, 1))
	want := fmt.Sprintf(`victim %q: query 1: answered "predicted class 7 with confidence 0.9", not {"scores": [...]} or {"error": "..."}`, c.name)
	if err == nil || err.Error() != want {
		t.Fatalf("error\n %v\nwant\n %s", err, want)
	}
	if _, err2 := c.Scores(testImage(2, 2, 1)); err2 != err {
		t.Errorf("after garbage: %v, want the same error", err2)
	}
	waitGone(t, c.cmd.Process.Pid, "the victim")
}

func TestErrorReply(t *testing.T) {
	c := startImage(t, "error", Options{})
	m := testImage(5, 4, 3)
	_, err := c.Scores(m)
	want := fmt.Sprintf(`victim %q: query 1: it failed: "cannot score this one"`, c.name)
	if err == nil || err.Error() != want {
		t.Fatalf("error\n %v\nwant\n %s", err, want)
	}
	p, err := c.Scores(m) // not fatal
	if err != nil {
		t.Fatal(err)
	}
	wantImageScores(t, p, m)
}

func TestBadScores(t *testing.T) {
	for mode, want := range map[string]string{
		"nan":   `query 1: answered "{\"scores\": [0.5, NaN]}", not {"scores": [...]} or {"error": "..."} (NaN and Infinity are not JSON; scores must be finite)`,
		"empty": "query 1: it answered no scores",
	} {
		c := startImage(t, mode, Options{})
		if _, err := c.Scores(testImage(1, 1, 1)); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: error\n %v\nwant it to end\n %s", mode, err, want)
		}
	}
}

func TestParseReply(t *testing.T) {
	for _, tc := range []struct {
		line, p, err string
		fatal        bool
	}{
		{line: `{"scores": [0.25, 0.75]}`, p: "[0.25 0.75]"},
		{line: `{"scores": [1e-300, 0, 3], "label": 2}`, p: "[1e-300 0 3]"},
		{line: `{"error": "bad shape", "scores": null}`, err: `it failed: "bad shape"`},
		{line: `{"error": {"code": 3}}`, err: `it failed: "{\"code\": 3}"`},
		{line: `{"scores": [1, 1e999]}`, err: "score 1, 1e999, is not a finite number"},
		{line: `{"scores": [1, "2"]}`, err: `answered "{\"scores\": [1, \"2\"]}": score 1 is not a number`, fatal: true},
		{line: `{"scores": [1]} {"scores": [2]}`, err: "answered", fatal: true},
		{line: `{"scors": [1]}`, err: "answered", fatal: true},
		{line: `[0.5, 0.5]`, err: "answered", fatal: true},
		{line: strings.Repeat("x", 300), err: `answered "` + strings.Repeat("x", 200) + `"…, not`, fatal: true},
	} {
		p, fatal, err := parseReply([]byte(tc.line))
		switch {
		case tc.err == "" && (err != nil || fmt.Sprint(p) != tc.p):
			t.Errorf("%s: %v, %v; want %s", tc.line, p, err, tc.p)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err) || fatal != tc.fatal):
			t.Errorf("%s: error %v (fatal %v), want %q… (fatal %v)", tc.line, err, fatal, tc.err, tc.fatal)
		}
	}
}

func TestMissingExecutable(t *testing.T) {
	_, err := StartImage([]string{"boa-no-such-victim", "--model", "m.pt"}, Options{})
	want := `victim "boa-no-such-victim --model m.pt": "boa-no-such-victim" is not an executable in PATH`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	if _, err := StartGraph(nil, Options{}); err == nil {
		t.Fatal("no error for an empty command")
	}
	_, err = StartImage([]string{"./no-such-victim.py"}, Options{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "no-such-victim.py") {
		t.Fatalf("error %v, want one naming the script", err)
	}
}

func TestCloseKillsDeafVictim(t *testing.T) {
	var stderr syncBuffer
	c := startImage(t, "deaf", Options{Stderr: &stderr})
	m := testImage(2, 2, 2)
	if _, err := c.Scores(m); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < closeGrace || d > closeGrace+3*time.Second {
		t.Errorf("Close took %v, want a little over %v", d, closeGrace)
	}
	waitGone(t, c.cmd.Process.Pid, "the victim")
	if !strings.Contains(stderr.String(), "staying anyway") {
		t.Errorf("the victim did not see its stdin close: stderr %q", stderr.String())
	}
	if err := c.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	if _, err := c.Scores(m); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Scores after Close: %v", err)
	}
}

func TestCloseReportsFailingExit(t *testing.T) {
	// A victim that exits with a failing status of its own is worth a word.
	c, err := StartImage([]string{"sh", "-c", `cat >/dev/null; echo "cleanup failed" >&2; exit 4`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Close()
	if err == nil || !strings.Contains(err.Error(), "exited with status 4 after its stdin was closed; its stderr ends: cleanup failed") {
		t.Fatalf("Close: %v", err)
	}
	if err2 := c.Close(); err2 != err {
		t.Errorf("second Close: %v, want the first's error", err2)
	}
}

func TestStderrTail(t *testing.T) {
	var tl tail
	tl.Write([]byte(strings.Repeat("lost line\n", 300)))
	tl.Write([]byte("a\n\n  b \r c\x1b[31m\nd"))
	if got, want := tl.lines(3), "b | c?[31m | d"; got != want {
		t.Errorf("lines(3) = %q, want %q", got, want)
	}
	tl = tail{}
	tl.Write([]byte(strings.Repeat("y", 3*tailBytes)))
	if got := tl.lines(3); got != "" {
		t.Errorf("one cut line: %q, want nothing", got)
	}
}
