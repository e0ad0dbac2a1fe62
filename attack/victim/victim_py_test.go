package victim

import (
	"bytes"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/internal/python"
)

// pyWithSklearn is an interpreter that imports scikit-learn (Debian's,
// where CI installs python3-sklearn), or the test is skipped.
func pyWithSklearn(t *testing.T) string {
	py, err := python.Find("sklearn")
	if err != nil {
		t.Skipf("examples/attack/victim.py needs scikit-learn: %v", err)
	}
	return py
}

// TestPythonVictim runs the example victim as boa attack does: a held-out
// digit written by the script, read back as the attack reads its image,
// then queries through the protocol.
func TestPythonVictim(t *testing.T) {
	py := pyWithSklearn(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "examples", "attack", "victim.py"))
	if err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(t.TempDir(), "digit.png")
	out, err := exec.Command(py, script, "--write-png", "0", png).CombinedOutput()
	if err != nil {
		t.Fatalf("--write-png: %v %s", err, out)
	}
	label := strings.TrimSpace(string(out))
	m, err := attack.ReadImage(png)
	if err != nil {
		t.Fatal(err)
	}
	if m.H != 8 || m.W != 8 || m.C != 1 {
		t.Fatalf("the digit is %d×%d×%d, want 8×8×1", m.H, m.W, m.C)
	}

	var stderr syncBuffer
	c, err := StartImage([]string{py, script}, Options{Timeout: 2 * time.Minute, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := c.Scores(m)
	if err != nil {
		t.Fatal(err)
	}
	checkProbabilities(t, p)
	t.Logf("label %s, scores %.3g", label, p)

	// A wrong shape fails that query only.
	_, err = c.Scores(attack.Image{H: 4, W: 4, C: 1, Pix: make([]float64, 16)})
	if err == nil || !strings.Contains(err.Error(), "shape [8, 8, 1]") {
		t.Errorf("a 4×4 image: error %v", err)
	}
	p, err = c.Scores(m)
	if err != nil {
		t.Fatal(err)
	}
	checkProbabilities(t, p)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// Only now: stderr is another pipe, copied at its own pace, and Close
	// waits for its end.
	if !strings.Contains(stderr.String(), "test accuracy") {
		t.Errorf("no accuracy on the victim's stderr: %q", stderr.String())
	}
	t.Log(strings.TrimSpace(stderr.String()))
}

func checkProbabilities(t *testing.T, p []float64) {
	t.Helper()
	if len(p) != 10 {
		t.Fatalf("%d scores, want 10", len(p))
	}
	sum := 0.0
	for _, v := range p {
		if v < 0 || v > 1 {
			t.Fatalf("score %v outside [0, 1]", v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-6 {
		t.Fatalf("scores sum to %v, want 1", sum)
	}
}

// syncBuffer is a bytes.Buffer the stderr copier and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
