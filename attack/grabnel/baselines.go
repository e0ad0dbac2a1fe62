package grabnel

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/attack"
)

// The genetic baseline's settings (Decisions; Dai et al. 2018 give the
// scheme, spec §2.5 no values).
const (
	genPopMin  = 4    // population size: B/10 clipped to [genPopMin, genPopMax]
	genPopMax  = 50   //
	genTourney = 3    // tournament size of parent selection
	genMutate  = 0.2  // probability that a flip of a child is redrawn
	genStale   = 1000 // children in a row already evaluated: the search is exhausted
)

// random is the random-search baseline (spec §2.5): every query is the
// origin with Δ distinct admissible flips drawn uniformly (all of them when
// fewer are admissible).
func (s *search) random() error {
	ps := s.pairs(s.origin)
	k := min(s.delta, len(ps))
	for !s.o.Done() {
		// A partial Fisher–Yates shuffle draws the first k.
		for i := range k {
			j := i + s.rng.IntN(len(ps)-i)
			ps[i], ps[j] = ps[j], ps[i]
		}
		if _, err := s.o.Ask(s.apply(ps[:k])); err != nil {
			return err
		}
	}
	return nil
}

// apply returns the origin with the given pairs flipped.
func (s *search) apply(flips [][2]int) attack.Graph {
	g := s.origin
	for _, p := range flips {
		g = g.Flip(p[0], p[1])
	}
	return g
}

// individual is a set of flips of the origin, as indices into the
// admissible pairs, ascending, and its loss.
type individual struct {
	flips []int
	y     float64
}

// genetic is the genetic-algorithm baseline in the manner of Dai et al.
// (2018) (spec §2.5): a population of flip sets of size Δ with fitness =
// loss; each generation keeps its best member and fills the rest with
// children of two tournament winners: a crossover draws Δ flips from the
// union of the parents' and mutation redraws each with probability 0.2.
// The budget is spent query by query; a child seen before takes its
// remembered loss without a query.
func (s *search) genetic() error {
	ps := s.pairs(s.origin)
	k := min(s.delta, len(ps))
	size := min(genPopMax, max(genPopMin, s.o.Left()/10))
	losses := map[string]float64{}
	stale := 0
	eval := func(flips []int) (individual, error) {
		slices.Sort(flips)
		key := setKey(flips)
		if y, ok := losses[key]; ok {
			stale++
			return individual{flips, y}, nil
		}
		g := make([][2]int, len(flips))
		for i, f := range flips {
			g[i] = ps[f]
		}
		y, err := s.o.Ask(s.apply(g))
		if err != nil {
			return individual{}, err
		}
		stale = 0
		losses[key] = y
		return individual{flips, y}, nil
	}
	draw := func() []int { // k distinct flips, uniformly
		idx := s.rng.Perm(len(ps))
		return slices.Clone(idx[:k])
	}
	var pop []individual
	for range size {
		ind, err := eval(draw())
		if err != nil {
			return err
		}
		pop = append(pop, ind)
	}
	tournament := func() individual {
		best := pop[s.rng.IntN(len(pop))]
		for range genTourney - 1 {
			if c := pop[s.rng.IntN(len(pop))]; c.y > best.y {
				best = c
			}
		}
		return best
	}
	for stale < genStale {
		next := []individual{slices.MaxFunc(pop, func(a, b individual) int { return cmp.Compare(a.y, b.y) })}
		for len(next) < size {
			child, err := eval(s.child(tournament(), tournament(), len(ps), k))
			if err != nil {
				return err
			}
			next = append(next, child)
		}
		pop = next
	}
	return nil
}

// child crosses a with b (k flips drawn from the union of theirs) and
// mutates the result (each flip redrawn, with probability genMutate, to
// an admissible pair it does not hold).
func (s *search) child(a, b individual, pairs, k int) []int {
	union := slices.Compact(slices.Sorted(slices.Values(slices.Concat(a.flips, b.flips))))
	s.rng.Shuffle(len(union), func(i, j int) { union[i], union[j] = union[j], union[i] })
	c := union[:k]
	if k == pairs {
		return c
	}
	for i := range c {
		if s.rng.Float64() >= genMutate {
			continue
		}
		for {
			if f := s.rng.IntN(pairs); !slices.Contains(c, f) {
				c[i] = f
				break
			}
		}
	}
	return c
}

// setKey is the map key of a sorted set of flips.
func setKey(flips []int) string {
	var b strings.Builder
	for _, f := range flips {
		b.WriteString(strconv.Itoa(f))
		b.WriteByte(' ')
	}
	return b.String()
}
