package auto_test

// Auto on purely categorical spaces (docs/samplers.md, "What auto
// chooses"):
//
//	BOA_REPRO=1 go test ./sampler -run TestReproAutoCategorical -v
//
// Four or five categorical parameters of three values each (81 and 243
// configurations), 30 trials, 20 seeds. The objective, drawn from the
// seed, is a sum of main effects N(0, 1) per value, plus, in the
// "interactions" rows, a term N(0, 1) per pair of values of every two
// parameters. Auto now uses casmopolitan there. CoCaBO, which auto used
// before, has no GP on such a space, only its bandits; it is run as auto
// ran it (gpbo's design size, the copula).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/boaopt/boa/bandit"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/auto"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

// categoricalProblem returns the space and objective described above.
func categoricalProblem(n int, interactions bool, seed uint64) (*space.Space, func(h []int) float64) {
	params := make([]space.Param, n)
	for i := range params {
		params[i] = space.Param{Name: fmt.Sprint("c", i), Kind: space.Categorical, Choices: []string{"a", "b", "c"}}
	}
	rng := rand.New(rand.NewPCG(seed, 999))
	main := make([][3]float64, n)
	for i := range main {
		for v := range 3 {
			main[i][v] = rng.NormFloat64()
		}
	}
	pair := make([][3][3]float64, n*n)
	if interactions {
		for k := range pair {
			for a := range 3 {
				for b := range 3 {
					pair[k][a][b] = rng.NormFloat64()
				}
			}
		}
	}
	return space.MustNew(params...), func(h []int) float64 {
		y := 0.0
		for i := range n {
			y += main[i][h[i]]
			for j := i + 1; j < n; j++ {
				y += pair[i*n+j][h[i]][h[j]]
			}
		}
		return y
	}
}

func TestReproAutoCategorical(t *testing.T) {
	samplertest.NeedRepro(t, "run auto on categorical spaces")
	const seeds, trials = 20, 30
	fmt.Println("| space | sampler | regret after 30 trials (mean ± s.e.) | optimum found |")
	fmt.Println("|---|---|---|---|")
	for _, n := range []int{4, 5} {
		for _, interactions := range []bool{false, true} {
			for _, name := range []string{"auto", "cocabo (auto before)", "gpbo", "random"} {
				regret := make([]float64, seeds)
				samplertest.ParallelSeeds(seeds, func(seed int) {
					sp, f := categoricalProblem(n, interactions, uint64(seed))
					arms := func(u []float64) []int {
						a, h := sp.Decode(u), make([]int, n)
						for i := range h {
							h[i] = int(a[fmt.Sprint("c", i)].(string)[0] - 'a')
						}
						return h
					}
					opt := math.Inf(1)
					for k := range int(math.Pow(3, float64(n))) {
						h := make([]int, n)
						for i := range h {
							h[i], k = k%3, k/3
						}
						opt = min(opt, f(h))
					}
					var s sampler.Sampler
					switch name {
					case "cocabo (auto before)":
						c := cocabo.New()
						c.InitPoints, c.Copula = max(5, n+1), true
						s = c
					default:
						var err error
						if s, err = sampler.New(name); err != nil {
							t.Error(err)
							return
						}
					}
					never := func(u []float64, _ *rand.Rand) (float64, bool) { return f(arms(u)), false }
					_, best := runFailing(t, s, failing{fmt.Sprintf("%d categorical parameters", n), sp, never}, "nothing", uint64(seed), trials)
					regret[seed-1] = best - opt
				})
				m, se := samplertest.MeanSE(regret)
				found := 0
				for _, r := range regret {
					if r < 1e-12 {
						found++
					}
				}
				kind := "main effects"
				if interactions {
					kind = "interactions"
				}
				label := name
				if name == "auto" {
					sp, _ := categoricalProblem(n, interactions, 1)
					label = fmt.Sprintf("auto (%s)", auto.New().Choice(sp, trials))
				}
				fmt.Printf("| %d × 3 values, %s | %s | %.3f ± %.3f | %d of %d |\n", n, kind, label, m, se, found, seeds)
			}
		}
	}
}

// Auto on one categorical parameter of many values (docs/samplers.md,
// "What auto chooses"):
//
//	BOA_REPRO=1 go test ./sampler -run TestReproAutoWideCategorical -v
//
// One categorical of n values and two floats in [−1, 1]:
// y = (x₁ − 0.3)² + (x₂ + 0.2)² + 0.3 sin 5x₁ sin 5x₂ + o(c), where o(c),
// drawn from the seed, is 0 for one value and uniform in [0.2, 1.2] for the
// others; 10 seeds. "Found" counts the runs whose best trial has the
// best value. CoCaBO and CASMOPOLITAN are run with auto's settings
// (gpbo's design of 5 points, the copula).
func TestReproAutoWideCategorical(t *testing.T) {
	samplertest.NeedRepro(t, "run auto on a categorical of many values")
	const seeds = 10
	fmt.Println("| values, budget | γ of CoCaBO's agent | sampler | median best y | best value found |")
	fmt.Println("|---|---|---|---|---|")
	for _, c := range []struct{ n, budget int }{{20, 60}, {30, 150}, {60, 150}, {100, 150}} {
		choices := make([]string, c.n)
		for i := range choices {
			choices[i] = fmt.Sprint(i)
		}
		sp := space.MustNew(
			space.Param{Name: "v", Kind: space.Categorical, Choices: choices},
			space.Param{Name: "x1", Kind: space.Float, Low: -1, High: 1},
			space.Param{Name: "x2", Kind: space.Float, Low: -1, High: 1},
		)
		for _, name := range []string{"cocabo", "casmopolitan", "onehot-gp"} {
			best := make([]float64, seeds)
			samplertest.ParallelSeeds(seeds, func(seed int) {
				rng := rand.New(rand.NewPCG(uint64(seed), 31))
				offset := make([]float64, c.n)
				for i := range offset {
					offset[i] = 0.2 + rng.Float64()
				}
				top := rng.IntN(c.n)
				offset[top] = 0
				var s sampler.Sampler
				switch name {
				case "cocabo":
					cc := cocabo.New()
					cc.InitPoints, cc.Copula = 5, true
					s = cc
				case "casmopolitan":
					cm := casmopolitan.New()
					cm.InitPoints = 5
					s = cm
				default:
					s = gpbo.NewOneHot()
				}
				value := func(u []float64) float64 {
					a := sp.Decode(u)
					x1, x2 := a["x1"].(float64), a["x2"].(float64)
					v, _ := strconv.Atoi(a["v"].(string))
					return (x1-0.3)*(x1-0.3) + (x2+0.2)*(x2+0.2) + 0.3*math.Sin(5*x1)*math.Sin(5*x2) + offset[v]
				}
				p := failing{fmt.Sprintf("%d values", c.n), sp, func(u []float64, _ *rand.Rand) (float64, bool) { return value(u), false }}
				_, best[seed-1] = runFailing(t, s, p, "nothing", uint64(seed), c.budget)
			})
			// The floats' part has its minimum −0.29, so y < −0.1 is
			// reached with the best value only (elsewhere y ≥ −0.09).
			found := 0
			for _, y := range best {
				if y < -0.1 {
					found++
				}
			}
			slices.Sort(best)
			gamma := bandit.TunedGamma(c.n, c.budget-5)
			fmt.Printf("| %d, %d | %.2f | %s | %.3f | %d of %d |\n", c.n, c.budget, gamma, name, (best[seeds/2-1]+best[seeds/2])/2, found, seeds)
		}
	}
}
