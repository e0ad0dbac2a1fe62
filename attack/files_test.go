package attack

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImageFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []int{1, 3} {
		m := Image{H: 2, W: 3, C: c}
		for i := range 6 * c {
			m.Pix = append(m.Pix, float64(i)/float64(6*c))
		}
		var b bytes.Buffer
		if err := WritePNG(&b, m); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "m.png")
		os.WriteFile(p, b.Bytes(), 0o644)
		got, err := ReadImage(p)
		if err != nil || got.H != 2 || got.W != 3 || got.C != c {
			t.Fatalf("%d channels: %+v %v", c, got, err)
		}
		for i, v := range got.Pix {
			if d := v - m.Pix[i]; d > 1e-5 || d < -1e-5 {
				t.Fatalf("%d channels: value %d read back as %v, wrote %v", c, i, v, m.Pix[i])
			}
		}
	}
	p := filepath.Join(dir, "m.json")
	os.WriteFile(p, []byte(`{"shape": [1, 2, 1], "pixels": [0, 1.5]}`), 0o644)
	if _, err := ReadImage(p); err == nil || !strings.Contains(err.Error(), "outside [0, 1]") {
		t.Fatalf("a value of 1.5: %v", err)
	}
}

func TestGraphFiles(t *testing.T) {
	g, err := ReadGraph(strings.NewReader("# nodes 5\n0 1\n\n3 2 \n# a comment\n"))
	if err != nil || g.N != 5 || len(g.Edges) != 2 || !g.Has(2, 3) {
		t.Fatalf("%+v %v", g, err)
	}
	var b bytes.Buffer
	WriteGraph(&b, g)
	if h, err := ReadGraph(&b); err != nil || h.N != 5 || len(h.Edges) != 2 {
		t.Fatalf("round trip: %+v %v", h, err)
	}
	for in, want := range map[string]string{"0 1 2\n": "line 1", "0 x\n": "not a number", "1 1\n": "loop", "": "empty", "# nodes 2\n0 2\n": "nodes are 0..1"} {
		if _, err := ReadGraph(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", in, err, want)
		}
	}
}
