package cocabo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// SuggestBatch proposes n distinct points to evaluate together, batch
// CoCaBO [000 Alg. 6; 002 Alg. 8; mixed spec §4.3]:
//
//  1. Each categorical variable's EXP3.M agent (γ = BatchGamma(N_j, n, T),
//     T = horizon(h, n)), rebuilt by replaying the history batch by batch
//     (replayEXP3M), plays n arms (distinct when n < N_j, else with
//     replacement); each variable's plays are shuffled and the i-th plays
//     of all variables form the i-th category vector.
//  2. The vectors are grouped into unique ones u_1..u_q (in lexicographic
//     order) with counts v_1..v_q.
//  3. For each group in turn, v_j points are chosen by Kriging Believer with
//     h = u_j fixed: maximise UCB over x, add the point to the model at its
//     posterior mean, repeat; later groups see the earlier picks.
//
// The n points are distinct from each other and from every evaluated or
// running configuration, also when Π N_j < n. If the acquisition search
// cannot find a new point for a group, a random unseen x with the same
// categories is used, then a random unseen configuration; only when the
// space has fewer than n unseen configurations left do the others repeat
// tried ones, as Suggest does on an exhausted space (unseenPoint). While the
// design is not complete (bo.InDesign) it returns n uniform random points; for
// a space without categorical parameters it runs gpbo n times with the
// earlier picks as pending trials (Kriging Believer). The acquisition
// positivity offset of the reference code is not needed: it changes no
// argmax under Kriging Believer.
func (c *CoCaBO) SuggestBatch(ctx context.Context, h *sampler.History, n int, rng *rand.Rand) ([][]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("cocabo: batch size %d, want at least 1", n)
	}
	l, err := c.prepare(h)
	if err != nil {
		return nil, err
	}
	if len(l.cat) == 0 {
		return c.fallbackBatch(ctx, h, n, rng)
	}
	seen := bo.Seen(h)
	if c.designing(h) {
		return freshPoints(l, seen, n, rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	hs := c.drawBatchArms(l, h, n, rng)
	model, err := c.model(l, h.Observed, n, rng)
	if err != nil {
		c.logger().Warn("cocabo: surrogate fit failed; proposing random x for the drawn categories", "trial", h.Trials, "err", err)
		out := make([][]float64, 0, n)
		for _, arms := range hs {
			u := unseenPoint(l, arms, seen, rng)
			seen[h.Space.Key(u)] = true
			out = append(out, u)
		}
		return out, nil
	}
	model = believeMixed(l, model, h.WithoutValue())
	factors := c.computability(h, rng)
	out := make([][]float64, 0, n)
	for _, g := range groupArms(hs) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var pts [][]float64
		pts, model = c.krigingBeliever(l, model, g.arms, g.count, h.Observed, seen, factors, rng)
		out = append(out, pts...)
	}
	return out, nil
}

// drawBatchArms returns the n category vectors of step 1 of SuggestBatch.
func (c *CoCaBO) drawBatchArms(l *mixedLayout, h *sampler.History, n int, rng *rand.Rand) [][]int {
	agents := replayEXP3M(l, h.Observed, c.initPoints(), n, c.Horizon(h, n), c.rewardOverArms())
	hs := make([][]int, n)
	for i := range hs {
		hs[i] = make([]int, len(agents))
	}
	for j, a := range agents {
		plays := a.Draw(rng)
		rng.Shuffle(len(plays), func(x, y int) { plays[x], plays[y] = plays[y], plays[x] })
		for i := range hs {
			hs[i][j] = plays[i]
		}
	}
	return hs
}

// armGroup is a unique category vector and how many batch points it gets.
type armGroup struct {
	arms  []int
	count int
}

// groupArms collects the unique vectors of hs, in lexicographic order.
func groupArms(hs [][]int) []armGroup {
	sorted := slices.Clone(hs)
	slices.SortFunc(sorted, slices.Compare)
	var gs []armGroup
	for _, h := range sorted {
		if k := len(gs); k > 0 && slices.Equal(gs[k-1].arms, h) {
			gs[k-1].count++
			continue
		}
		gs = append(gs, armGroup{arms: h, count: 1})
	}
	return gs
}

// krigingBeliever chooses v points with categories arms, each maximising
// UCB on the model updated with the previous picks at their posterior
// means [000 App. B.1, Alg. 17], and returns them with the updated model.
// Chosen points are added to seen.
func (c *CoCaBO) krigingBeliever(l *mixedLayout, model *gp.GP, arms []int, v int, obs []sampler.Observation, seen map[string]bool, factors []acq.Penalty, rng *rand.Rand) ([][]float64, *gp.GP) {
	pts := make([][]float64, 0, v)
	for range v {
		u, err := c.argmax(l, model, arms, obs, seen, factors, cocaboTopBatch, rng)
		if err != nil {
			u = unseenPoint(l, arms, seen, rng)
		}
		seen[l.sp.Key(u)] = true
		pts = append(pts, u)
		model = believeMixed(l, model, [][]float64{u})
	}
	return pts, model
}

// unseenPoint returns a random point whose configuration is not in seen,
// with the categories arms if possible (any when arms is nil), else with
// any categories. When the draws find none, every configuration has most
// likely been tried (a study whose budget exceeds its space), and it
// repeats one, a random x with the categories arms: the study goes on
// using its budget, as it does with every other sampler.
func unseenPoint(l *mixedLayout, arms []int, seen map[string]bool, rng *rand.Rand) []float64 {
	if arms != nil {
		for range bo.MaxFreshTries {
			if u := randomWithArms(l, arms, rng); !seen[l.sp.Key(u)] {
				return u
			}
			if len(l.cont) == 0 {
				break // the categories alone fix the point
			}
		}
	}
	u := bo.Untried(l.sp, func(u []float64) bool { return seen[l.sp.Key(u)] }, l.sp.Sample(rng), rng)
	if arms != nil && seen[l.sp.Key(u)] {
		return randomWithArms(l, arms, rng)
	}
	return u
}

// freshPoints returns n uniform random points, distinct and unseen while
// the space has such configurations left.
func freshPoints(l *mixedLayout, seen map[string]bool, n int, rng *rand.Rand) [][]float64 {
	out := make([][]float64, 0, n)
	for range n {
		u := unseenPoint(l, nil, seen, rng)
		seen[l.sp.Key(u)] = true
		out = append(out, u)
	}
	return out
}

// fallbackBatch runs gpbo n times, each time with the earlier picks as
// pending trials, which gpbo fantasises at their posterior mean and never
// proposes again.
func (c *CoCaBO) fallbackBatch(ctx context.Context, h *sampler.History, n int, rng *rand.Rand) ([][]float64, error) {
	g := c.fallback()
	hb := *h
	hb.Pending = slices.Clone(h.Pending)
	out := make([][]float64, 0, n)
	for i := range n {
		hb.Trials = h.Trials + i
		u, err := g.Suggest(ctx, &hb, rng)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
		hb.Pending = append(hb.Pending, u)
	}
	return out, nil
}
