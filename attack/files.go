package attack

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ReadImage reads the image to attack from path: a PNG (grey images give
// one channel, every other kind three; alpha is dropped; 16-bit values
// kept to 16 bits), or, for a name ending in .json, the JSON of the
// victim protocol, {"shape": [H, W, C], "pixels": [...]} (docs/attacks.md).
func ReadImage(path string) (Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return Image{}, err
	}
	defer f.Close()
	var m Image
	if strings.EqualFold(filepath.Ext(path), ".json") {
		m, err = decodeImageJSON(f)
	} else {
		m, err = decodePNG(f)
	}
	if err == nil {
		err = m.Check()
	}
	if err != nil {
		return Image{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ImageJSON is an image as the victim protocol writes it.
type ImageJSON struct {
	Shape  [3]int    `json:"shape"`
	Pixels []float64 `json:"pixels"`
}

// JSON returns m as the victim protocol writes it.
func (m Image) JSON() ImageJSON { return ImageJSON{Shape: [3]int{m.H, m.W, m.C}, Pixels: m.Pix} }

func decodeImageJSON(r io.Reader) (Image, error) {
	var j ImageJSON
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return Image{}, fmt.Errorf(`want {"shape": [H, W, C], "pixels": [...]}: %w`, err)
	}
	return Image{H: j.Shape[0], W: j.Shape[1], C: j.Shape[2], Pix: j.Pixels}, nil
}

func decodePNG(r io.Reader) (Image, error) {
	src, err := png.Decode(r)
	if err != nil {
		return Image{}, err
	}
	b := src.Bounds()
	m := Image{H: b.Dy(), W: b.Dx(), C: 3}
	switch src.ColorModel() {
	case color.GrayModel, color.Gray16Model:
		m.C = 1
	}
	m.Pix = make([]float64, 0, m.Len())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if m.C == 1 {
				g := color.Gray16Model.Convert(src.At(x, y)).(color.Gray16)
				m.Pix = append(m.Pix, float64(g.Y)/0xffff)
				continue
			}
			c := color.NRGBA64Model.Convert(src.At(x, y)).(color.NRGBA64)
			m.Pix = append(m.Pix, float64(c.R)/0xffff, float64(c.G)/0xffff, float64(c.B)/0xffff)
		}
	}
	return m, nil
}

// WritePNG writes m as a 16-bit grey (one channel) or RGB (three) PNG.
// Values are rounded to 16 bits, 1.5e-5 at most, far below any δ_max;
// other channel counts are an error.
func WritePNG(w io.Writer, m Image) error {
	if err := m.Check(); err != nil {
		return err
	}
	q := func(v float64) uint16 { return uint16(math.Round(v * 0xffff)) }
	r := image.Rect(0, 0, m.W, m.H)
	var out image.Image
	switch m.C {
	case 1:
		g := image.NewGray16(r)
		for i, v := range m.Pix {
			g.SetGray16(i%m.W, i/m.W, color.Gray16{Y: q(v)})
		}
		out = g
	case 3:
		c := image.NewNRGBA64(r)
		for i := 0; i < len(m.Pix); i += 3 {
			p := i / 3
			c.SetNRGBA64(p%m.W, p/m.W, color.NRGBA64{R: q(m.Pix[i]), G: q(m.Pix[i+1]), B: q(m.Pix[i+2]), A: 0xffff})
		}
		out = c
	default:
		return fmt.Errorf("image: a PNG has 1 or 3 channels, this image %d", m.C)
	}
	return png.Encode(w, out)
}

// GraphJSON is a graph as the victim protocol writes it.
type GraphJSON struct {
	Nodes int      `json:"nodes"`
	Edges [][2]int `json:"edges"`
}

// JSON returns g as the victim protocol writes it.
func (g Graph) JSON() GraphJSON {
	e := g.Edges
	if e == nil {
		e = [][2]int{}
	}
	return GraphJSON{Nodes: g.N, Edges: e}
}

// ReadGraph reads an edge list: one edge "u v" per line (0-based nodes),
// blank lines and # comments ignored, except a line "# nodes N" that sets
// the node count (otherwise the largest node + 1, so isolated nodes at the
// end need it). WriteGraph writes this form.
func ReadGraph(r io.Reader) (Graph, error) {
	sc := bufio.NewScanner(r)
	n, top := -1, -1
	var edges [][2]int
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(s, "#"); ok {
			if f := strings.Fields(rest); len(f) == 2 && f[0] == "nodes" {
				v, err := strconv.Atoi(f[1])
				if err != nil || v < 1 {
					return Graph{}, fmt.Errorf("line %d: %q: the node count must be a positive integer", line, s)
				}
				n = v
			}
			continue
		}
		if s == "" {
			continue
		}
		f := strings.Fields(s)
		if len(f) != 2 {
			return Graph{}, fmt.Errorf("line %d: %q: want an edge as two node numbers, \"u v\"", line, s)
		}
		var e [2]int
		for i, x := range f {
			v, err := strconv.Atoi(x)
			if err != nil || v < 0 {
				return Graph{}, fmt.Errorf("line %d: %q: node %q is not a number ≥ 0", line, s, x)
			}
			e[i] = v
			top = max(top, v)
		}
		edges = append(edges, e)
	}
	if err := sc.Err(); err != nil {
		return Graph{}, err
	}
	if n < 0 {
		n = top + 1
	}
	if n < 1 {
		return Graph{}, fmt.Errorf("no edges and no \"# nodes N\" line: an empty graph")
	}
	return NewGraph(n, edges)
}

// WriteGraph writes g as ReadGraph reads it.
func WriteGraph(w io.Writer, g Graph) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# nodes %d\n", g.N)
	for _, e := range g.Edges {
		fmt.Fprintf(bw, "%d %d\n", e[0], e[1])
	}
	return bw.Flush()
}
