package graph

import (
	"fmt"
	"slices"
	"strings"
)

// Graph is a directed graph whose nodes carry labels (operations). Node i
// has label Labels[i] and edges to the nodes Out[i], in ascending order.
type Graph struct {
	Labels []string
	Out    [][]int
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.Labels) }

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int {
	n := 0
	for _, o := range g.Out {
		n += len(o)
	}
	return n
}

// In returns the in-neighbours of every node, each list ascending.
func (g *Graph) In() [][]int {
	in := make([][]int, g.Len())
	for v, out := range g.Out {
		for _, w := range out {
			in[w] = append(in[w], v)
		}
	}
	return in
}

// String writes the graph as "label0 label1 …; 0→1 0→2 …", for messages
// and tests.
func (g *Graph) String() string {
	var b strings.Builder
	b.WriteString(strings.Join(g.Labels, " "))
	b.WriteString(";")
	for v, out := range g.Out {
		for _, w := range out {
			fmt.Fprintf(&b, " %d→%d", v, w)
		}
	}
	return b.String()
}

// dag is the adjacency matrix form the cell conversions edit: nodes are
// deleted by marking them, edges by clearing entries.
type dag struct {
	labels []string
	adj    [][]bool
	gone   []bool
}

func newDAG(labels []string, edges [][2]int) *dag {
	d := &dag{labels: labels, adj: make([][]bool, len(labels)), gone: make([]bool, len(labels))}
	for i := range d.adj {
		d.adj[i] = make([]bool, len(labels))
	}
	for _, e := range edges {
		d.adj[e[0]][e[1]] = true
	}
	return d
}

// remove deletes node v; with rewire, each of its predecessors gets an
// edge to each of its successors first (how a skip connection is removed).
func (d *dag) remove(v int, rewire bool) {
	if rewire {
		for p := range d.adj {
			if !d.adj[p][v] {
				continue
			}
			for s := range d.adj {
				if d.adj[v][s] {
					d.adj[p][s] = true
				}
			}
		}
	}
	for i := range d.adj {
		d.adj[i][v], d.adj[v][i] = false, false
	}
	d.gone[v] = true
}

func (d *dag) hasIn(v int) bool {
	return slices.ContainsFunc(d.adj, func(row []bool) bool { return row[v] })
}

func (d *dag) hasOut(v int) bool { return slices.Contains(d.adj[v], true) }

// graph returns the remaining nodes, renumbered in their order.
func (d *dag) graph() *Graph {
	id := make([]int, len(d.labels))
	g := &Graph{}
	for v := range d.labels {
		if !d.gone[v] {
			id[v] = len(g.Labels)
			g.Labels = append(g.Labels, d.labels[v])
		}
	}
	g.Out = make([][]int, len(g.Labels))
	for v := range d.labels {
		if d.gone[v] {
			continue
		}
		for w, e := range d.adj[v] {
			if e {
				g.Out[id[v]] = append(g.Out[id[v]], id[w])
			}
		}
	}
	return g
}
