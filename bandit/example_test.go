package bandit_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/bandit"
)

// An EXP3 agent learns which of five arms pays best; rewards must already be
// in [0, 1].
func ExampleEXP3() {
	rng := rand.New(rand.NewPCG(1, 2))
	payout := []float64{0.2, 0.4, 0.9, 0.5, 0.3} // Bernoulli means
	const rounds = 2000
	agent := bandit.NewEXP3(len(payout), bandit.TunedGamma(len(payout), rounds))
	for t := 0; t < rounds; t++ {
		arm := agent.Draw(rng)
		reward := 0.0
		if rng.Float64() < payout[arm] {
			reward = 1
		}
		agent.Update(arm, reward)
	}
	p := agent.Probs()
	best := 0
	for j := range p {
		if p[j] > p[best] {
			best = j
		}
	}
	fmt.Printf("most likely arm: %d (p > 0.9: %v)\n", best, p[best] > 0.9)
	// Output:
	// most likely arm: 2 (p > 0.9: true)
}

// EXP3.M plays b distinct arms per round; DepRound draws them so that arm i
// is included with probability p_i.
func ExampleEXP3M() {
	rng := rand.New(rand.NewPCG(1, 2))
	agent := bandit.NewEXP3M(6, 2, bandit.BatchGamma(6, 2, 100))
	p, capped := agent.Probs()
	fmt.Printf("p = %.3f, capped = %v\n", p, capped)
	arms := agent.Draw(rng)
	fmt.Println("distinct arms:", len(arms), arms[0] != arms[1])
	agent.Update(arms, []float64{1, 0.25})
	// Output:
	// p = [0.333 0.333 0.333 0.333 0.333 0.333], capped = [false false false false false false]
	// distinct arms: 2 true
}

func ExampleDepRound() {
	rng := rand.New(rand.NewPCG(3, 4))
	p := []float64{1, 0.5, 0.5, 0, 1}
	fmt.Println(len(bandit.DepRound(p, 3, rng)))
	// Output: 3
}
