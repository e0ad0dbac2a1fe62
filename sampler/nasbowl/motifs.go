package nasbowl

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/sampler"
)

// Motif is a WL feature of the architectures, a rooted subtree of their
// graphs, with how the model says it moves the objective [000 §7.3.3].
type Motif struct {
	Name   string  `json:"motif"`  // the subtree, "label(neighbour, …)" (graph.WL.Name)
	Depth  int     `json:"depth"`  // its WL level h
	Graphs int     `json:"trials"` // completed architectures that contain it
	Effect float64 `json:"effect"` // averaged gradient AG of the GP's mean, in its target's units (log of the objective when positive)
	Score  float64 `json:"score"`  // AG/√EV: negative lowers the objective boa minimises, positive raises it
}

// Motifs fits GPWL to the completed trials of h and scores every WL
// feature of the chosen depth or less that more than minGraphs of them
// contain (000 §7.3.3 counts motifs seen more than 10 times), most
// beneficial first (lowest Score) [000 Eqs. 7.6–7.9; spec §7]:
//
//	g_n = ∂μ/∂φ^j(G_n) = Σ_i α_i ∂k(G_n, G_i)/∂φ^j,
//	∂k/∂φ^j = φ^j(G_i)/(‖φ(G_i)‖‖φ(G_n)‖) − k(G_i, G_n)·φ^j(G_n)/‖φ(G_n)‖²
//
// for the cosine-normalised dot kernel, AG = the mean of g_n over the
// graphs that contain the feature, EV = the mean of g_n² − AG², Score =
// AG/√EV. AG follows the seed's worked example (spec §7.2 Decision: the
// graphs with φ^j > 0, equally weighted), not Eq. 7.8's frequency
// weights. A feature with the same count in every graph (input, output)
// tells no architecture from another, and one whose gradient is the same
// in every graph that has it (EV = 0) has no spread to judge it by: both
// are left out. Only the WL kernel with the dot base kernel has scores.
func (n *NASBOWL) Motifs(h *sampler.History, minGraphs int) ([]Motif, error) {
	if n.Base != graph.Dot || n.Kernel != GraphKernelWL {
		return nil, errors.New("nasbowl: motif scores need the WL kernel with the dot base kernel")
	}
	c, err := cellOf(h.Space)
	if err != nil {
		return nil, err
	}
	done := &sampler.History{Space: h.Space, Observed: h.Observed}
	m, err := n.fit(done, c, nil)
	if err != nil {
		return nil, err
	}
	alpha := m.g.Weights()
	_, scale := m.g.Standardization()
	fs := m.train
	dot := func(i, k int) float64 { return m.wl.Similarity(fs[i], fs[k], m.depth, graph.Dot) }
	norm := make([]float64, len(fs))
	for i := range fs {
		norm[i] = math.Sqrt(dot(i, i))
	}
	// s_n = Σ_i α_i k(G_n, G_i), and per feature v_j = Σ_i α_i φ^j(G_i)/‖φ(G_i)‖,
	// so that g_n = v_j/‖φ(G_n)‖ − φ^j(G_n)·s_n/‖φ(G_n)‖².
	s := make([]float64, len(fs))
	v := map[int]float64{}
	graphs := map[int][]int{} // feature of depth ≤ H → the graphs containing it
	for i, fi := range fs {
		for k := range fs {
			s[i] += alpha[k] * dot(i, k) / (norm[i] * norm[k])
		}
		for _, c := range fi {
			if m.wl.Level(c.ID) <= m.depth {
				v[c.ID] += alpha[i] * c.N / norm[i]
				graphs[c.ID] = append(graphs[c.ID], i)
			}
		}
	}
	var out []Motif
	for id, in := range graphs {
		if len(in) <= minGraphs || constant(fs, in, id) {
			continue
		}
		var sum, sum2 float64
		for _, i := range in {
			g := v[id]/norm[i] - count(fs[i], id)*s[i]/(norm[i]*norm[i])
			sum, sum2 = sum+g, sum2+g*g
		}
		ag := sum / float64(len(in))
		ev := sum2/float64(len(in)) - ag*ag
		if !(ev > 0) {
			continue // one gradient for every graph: no spread to judge it by
		}
		out = append(out, Motif{Name: m.wl.Name(id), Depth: m.wl.Level(id), Graphs: len(in), Effect: ag * scale, Score: ag / math.Sqrt(ev)})
	}
	slices.SortFunc(out, func(a, b Motif) int {
		return cmp.Or(cmp.Compare(a.Score, b.Score), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}

// constant reports whether feature id has the same count in every graph
// of fs (in: the graphs that have it), as input and output have in every
// cell: such a feature tells no architecture from another.
func constant(fs []graph.Features, in []int, id int) bool {
	if len(in) < len(fs) {
		return false
	}
	for _, i := range in {
		if count(fs[i], id) != count(fs[in[0]], id) {
			return false
		}
	}
	return true
}

// count returns φ^id of f.
func count(f graph.Features, id int) float64 {
	if i, ok := slices.BinarySearchFunc(f, id, func(c graph.Count, id int) int { return cmp.Compare(c.ID, id) }); ok {
		return f[i].N
	}
	return 0
}
