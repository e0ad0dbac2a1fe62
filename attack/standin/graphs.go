package standin

import (
	"math/rand/v2"

	"github.com/boaopt/boa/attack"
)

// The Erdős–Rényi task of spec §3 (Dai et al. 2018): n ~ U{20..60},
// p ~ U[0.05, 0.2], label 1 when the graph is disconnected.
const (
	erMinNodes = 20
	erMaxNodes = 60
	erMinP     = 0.05
	erMaxP     = 0.2
	erStream   = 0xe5 // the PCG stream of ERGraphs
)

// GraphExample is a graph and its class.
type GraphExample struct {
	Graph attack.Graph
	Label int
}

// ERGraphs draws n Erdős–Rényi graphs from seed: each draws its number of
// nodes uniformly in 20..60 and its edge probability uniformly in
// [0.05, 0.2], then each pair u < v independently. Label is 1 when the
// graph has two connected components or more, else 0.
func ERGraphs(n int, seed uint64) []GraphExample {
	rng := rand.New(rand.NewPCG(seed, erStream))
	out := make([]GraphExample, n)
	for k := range out {
		nodes := erMinNodes + rng.IntN(erMaxNodes-erMinNodes+1)
		p := erMinP + (erMaxP-erMinP)*rng.Float64()
		g := attack.Graph{N: nodes}
		for u := range nodes {
			for v := u + 1; v < nodes; v++ {
				if rng.Float64() < p {
					g.Edges = append(g.Edges, [2]int{u, v})
				}
			}
		}
		out[k] = GraphExample{Graph: g, Label: Disconnected(g)}
	}
	return out
}

// Components is the number of connected components of g, whose edges
// must be in range.
func Components(g attack.Graph) int {
	parent := make([]int, g.N)
	for i := range parent {
		parent[i] = i
	}
	root := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	n := g.N
	for _, e := range g.Edges {
		if a, b := root(e[0]), root(e[1]); a != b {
			parent[a] = b
			n--
		}
	}
	return n
}

// Disconnected is the ER task's label of g: 1 with two components or
// more, else 0.
func Disconnected(g attack.Graph) int {
	if Components(g) >= 2 {
		return 1
	}
	return 0
}
