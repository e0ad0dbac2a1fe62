package sampler

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCasmopolitanNeighbourValid checks the validity test of the local
// search's neighbours [spec §5.5; reference code: xingchenwan/Casmopolitan]:
// a Hamming-1 neighbour of the current point whose categorical part is at
// distance 0 < d ≤ L^h from the centre's and off the trajectory, in mixed
// and categorical spaces; with none valid the search gets nil.
func TestCasmopolitanNeighbourValid(t *testing.T) {
	for _, nx := range []int{2, 0} {
		sp := casmoTestSpace(t, 4, 3, nx)
		cs, _ := newCasmoSpace(sp)
		rng := rand.New(rand.NewPCG(7, uint64(nx)))
		for trial := range 200 {
			tr := trustRegion{centre: sp.Sample(rng), radius: 1 + trial%3}
			tr.lo, tr.hi = box(cs, tr.centre, nil, 0.8)
			s := &casmoSearch{cs: cs, tr: tr, rng: rng}
			u := cs.perturb(tr, rng)
			onPath := map[string]bool{s.catKey(u): true}
			for range 20 {
				nb := s.neighbour(u, onPath)
				if nb == nil {
					continue
				}
				d := cs.hamming(nb, tr.centre)
				if d == 0 || d > tr.radius || cs.hamming(nb, u) != 1 || onPath[s.catKey(nb)] {
					t.Fatalf("d_x = %d: neighbour of %v at distance %d from the centre %v (radius %d), %d from u",
						nx, u, d, tr.centre, tr.radius, cs.hamming(nb, u))
				}
				for _, i := range cs.cont {
					if nb[i] != u[i] {
						t.Fatalf("d_x = %d: a categorical step moved continuous coordinate %d", nx, i)
					}
				}
			}
		}
	}

	// L^h = 1 on binary variables, one step away from the centre: the only
	// Hamming-1 neighbours are the centre's categorical part (d = 0) and
	// points at distance 2, so there is none, and the search stops.
	sp := casmoTestSpace(t, 3, 2, 1)
	cs, _ := newCasmoSpace(sp)
	centre := []float64{cs.code(0, 0), cs.code(1, 0), cs.code(2, 0), 0.5}
	tr := trustRegion{centre: centre, radius: 1}
	tr.lo, tr.hi = box(cs, centre, nil, 0.8)
	s := &casmoSearch{cs: cs, tr: tr, rng: rand.New(rand.NewPCG(1, 1))}
	u := slices.Clone(centre)
	u[0], u[3] = cs.code(0, 1), 0.7
	for range 20 {
		if nb := s.neighbour(u, map[string]bool{s.catKey(u): true}); nb != nil {
			t.Fatalf("L^h = 1: neighbour %v of %v, at distance %d from the centre; want none", nb, u, cs.hamming(nb, centre))
		}
	}
}
