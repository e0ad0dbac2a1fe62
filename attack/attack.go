package attack

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Image is an image with pixel values in [0, 1], H rows of W pixels of C
// channels, channels last: pixel (i, j) channel c is Pix[(i·W + j)·C + c].
type Image struct {
	H, W, C int
	Pix     []float64
}

// Len is the number of values, H·W·C.
func (m Image) Len() int { return m.H * m.W * m.C }

// Clone returns a deep copy.
func (m Image) Clone() Image { m.Pix = slices.Clone(m.Pix); return m }

// Check reports a shape that does not match Pix, or a value outside [0, 1].
func (m Image) Check() error {
	if m.H < 1 || m.W < 1 || m.C < 1 {
		return fmt.Errorf("image: shape %d×%d×%d: every side must be at least 1", m.H, m.W, m.C)
	}
	if len(m.Pix) != m.Len() {
		return fmt.Errorf("image: %d values for a %d×%d×%d image (%d)", len(m.Pix), m.H, m.W, m.C, m.Len())
	}
	for i, v := range m.Pix {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("image: value %d is %v, outside [0, 1]", i, v)
		}
	}
	return nil
}

// Graph is an undirected simple graph on the nodes 0..N−1 with its edges
// as pairs u < v in ascending order (no loops, no duplicates).
type Graph struct {
	N     int
	Edges [][2]int
}

// NewGraph returns the graph on n nodes with the given edges, each
// normalised to u < v and sorted; a loop, a repeated edge or a node out
// of range is an error.
func NewGraph(n int, edges [][2]int) (Graph, error) {
	g := Graph{N: n, Edges: make([][2]int, 0, len(edges))}
	for _, e := range edges {
		u, v := min(e[0], e[1]), max(e[0], e[1])
		if u < 0 || v >= n {
			return Graph{}, fmt.Errorf("graph: edge (%d, %d): nodes are 0..%d", e[0], e[1], n-1)
		}
		if u == v {
			return Graph{}, fmt.Errorf("graph: edge (%d, %d) is a loop", e[0], e[1])
		}
		g.Edges = append(g.Edges, [2]int{u, v})
	}
	slices.SortFunc(g.Edges, CompareEdges)
	for i := 1; i < len(g.Edges); i++ {
		if g.Edges[i] == g.Edges[i-1] {
			return Graph{}, fmt.Errorf("graph: edge (%d, %d) is given twice", g.Edges[i][0], g.Edges[i][1])
		}
	}
	return g, nil
}

// CompareEdges orders edges as a Graph keeps them: by u, then v.
func CompareEdges(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// Has reports whether the edge {u, v} is present.
func (g Graph) Has(u, v int) bool {
	_, ok := slices.BinarySearchFunc(g.Edges, [2]int{min(u, v), max(u, v)}, CompareEdges)
	return ok
}

// Flip returns g with the edge {u, v} removed if present and added if not
// (footnote 7 of [000 §6.6.3]); g is unchanged. u ≠ v, both in range.
func (g Graph) Flip(u, v int) Graph {
	e := [2]int{min(u, v), max(u, v)}
	i, ok := slices.BinarySearchFunc(g.Edges, e, CompareEdges)
	out := Graph{N: g.N}
	if ok {
		out.Edges = slices.Delete(slices.Clone(g.Edges), i, i+1)
	} else {
		out.Edges = slices.Insert(slices.Clone(g.Edges), i, e)
	}
	return out
}

// Victim is a classifier under attack: an input in, one score per class
// out (probabilities, or any non-negative scores whose ratios rank the
// classes). It answers one query at a time.
type Victim[T any] interface {
	Scores(x T) ([]float64, error)
}

// Goal is what an attack wants of the victim.
type Goal struct {
	Origin int // t₀: the class the victim gives the clean input
	Target int // t: the class to reach, or Untargeted
}

// Untargeted as a Goal's Target: any class but Origin.
const Untargeted = -1

// Targeted reports whether the goal names a target class.
func (g Goal) Targeted() bool { return g.Target != Untargeted }

// Reached reports success on the scores p: argmax p = t, or argmax p ≠ t₀
// untargeted (spec, Corrections). Ties go to the lowest class, as NumPy's
// argmax.
func (g Goal) Reached(p []float64) bool {
	top := Class(p)
	if g.Targeted() {
		return top == g.Target
	}
	return top != g.Origin
}

// logFloor keeps log p finite for a score of zero [spec §1.2, reference
// code: rubinxin/BayesOpt_Attack].
const logFloor = 1e-30

func logp(p float64) float64 { return math.Log(p + logFloor) }

// ImageLoss is y of [000 Eq. 6.2]: log p_t − log Σ_{j≠t} p_j targeted, and
// max_{i≠t₀} log p_i − log p_t₀ untargeted (package documentation).
func ImageLoss(p []float64, g Goal) float64 {
	if !g.Targeted() {
		return bestOther(p, g.Origin) - logp(p[g.Origin])
	}
	rest := 0.0
	for j, v := range p {
		if j != g.Target {
			rest += v
		}
	}
	return logp(p[g.Target]) - logp(rest)
}

// GraphLoss is y of [000 Eq. 6.10]: log p_t − log p_t₀ targeted, and
// max_{i≠t₀} log p_i − log p_t₀ untargeted.
func GraphLoss(p []float64, g Goal) float64 {
	if !g.Targeted() {
		return bestOther(p, g.Origin) - logp(p[g.Origin])
	}
	return logp(p[g.Target]) - logp(p[g.Origin])
}

func bestOther(p []float64, t0 int) float64 {
	best := math.Inf(-1)
	for i, v := range p {
		if i != t0 {
			best = max(best, logp(v))
		}
	}
	return best
}

// Class is the class the scores p give: argmax p, ties to the lowest
// class, as NumPy's argmax.
func Class(p []float64) int {
	top := 0
	for i, v := range p {
		if v > p[top] {
			top = i
		}
	}
	return top
}

// Query is one question put to the victim and its answer.
type Query struct {
	N       int       // 1-based: the N-th query of the attack
	Loss    float64   // y, maximised
	Scores  []float64 // the victim's answer
	Success bool      // the goal was reached
}

// Errors an Oracle returns instead of an answer.
var (
	// ErrBudget: the query budget is spent; nothing was asked.
	ErrBudget = errors.New("attack: query budget spent")
	// ErrDone: an earlier query succeeded; nothing more is asked.
	ErrDone = errors.New("attack: already succeeded")
)

// Oracle is the victim behind an attack's budget. Every method of the
// attacks asks through one, so the accounting (queries, success on every
// query, stop at the first, the best input so far) is the same for all.
// An Oracle is not safe for concurrent use.
type Oracle[T any] struct {
	victim  Victim[T]
	goal    Goal
	loss    func([]float64, Goal) float64
	budget  int
	classes int // from the first answer; every later one must agree

	// Progress, when set, is called after every answered query with it
	// and the best loss so far.
	Progress func(q Query, best float64)

	n        int
	best     T
	bestLoss float64
	success  bool
}

// NewOracle returns an oracle that asks v at most budget times for goal,
// scoring answers with loss (ImageLoss or GraphLoss).
func NewOracle[T any](v Victim[T], goal Goal, loss func([]float64, Goal) float64, budget int) *Oracle[T] {
	return &Oracle[T]{victim: v, goal: goal, loss: loss, budget: budget, bestLoss: math.Inf(-1)}
}

// Ask queries the victim on x and returns y(x). It returns ErrBudget when
// the budget is spent and ErrDone after a success, without asking; a
// victim's error, or an answer that is not one finite non-negative score
// per class, is returned wrapped, and the queries before it are kept.
func (o *Oracle[T]) Ask(x T) (float64, error) {
	if o.success {
		return 0, ErrDone
	}
	if o.n >= o.budget {
		return 0, ErrBudget
	}
	p, err := o.victim.Scores(x)
	if err != nil {
		return 0, fmt.Errorf("query %d: %w", o.n+1, err)
	}
	if err := o.check(p); err != nil {
		return 0, fmt.Errorf("query %d: %w", o.n+1, err)
	}
	o.n++
	q := Query{N: o.n, Loss: o.loss(p, o.goal), Scores: p, Success: o.goal.Reached(p)}
	if q.Success || q.Loss > o.bestLoss || o.n == 1 {
		o.best, o.bestLoss = x, q.Loss
	}
	o.success = q.Success
	if o.Progress != nil {
		o.Progress(q, o.bestLoss)
	}
	return q.Loss, nil
}

func (o *Oracle[T]) check(p []float64) error {
	if o.classes == 0 {
		if n := max(o.goal.Origin, o.goal.Target) + 1; len(p) < max(n, 2) {
			return fmt.Errorf("victim: %d scores, need at least %d (class %d)", len(p), max(n, 2), n-1)
		}
		o.classes = len(p)
	}
	if len(p) != o.classes {
		return fmt.Errorf("victim: %d scores, the first answer had %d", len(p), o.classes)
	}
	for i, v := range p {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("victim: score %d is %v, want a finite number ≥ 0", i, v)
		}
	}
	return nil
}

// Done reports whether the attack should stop: success, or budget spent.
func (o *Oracle[T]) Done() bool { return o.success || o.n >= o.budget }

// Left is the number of queries the budget still allows.
func (o *Oracle[T]) Left() int { return max(0, o.budget-o.n) }

// Queries is the number of queries answered.
func (o *Oracle[T]) Queries() int { return o.n }

// Result is what an attack found: whether it succeeded, the queries it
// used, and the input it ends with — the successful one, else the one of
// the largest loss (the zero T when no query was answered).
type Result[T any] struct {
	Success bool
	Queries int
	Input   T
	Loss    float64
}

// Result returns the attack's outcome so far.
func (o *Oracle[T]) Result() Result[T] {
	return Result[T]{Success: o.success, Queries: o.n, Input: o.best, Loss: o.bestLoss}
}
