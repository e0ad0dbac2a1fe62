package bandit

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DefaultEpsilon is the ε-greedy exploration probability used when none is
// given; the seed gives no value (spec §2.4 Decision).
const DefaultEpsilon = 0.1

// Policy is the arm-selection rule of a MeanBandit [002 §2.4.1–2.4.2].
type Policy int

const (
	// Greedy plays every arm once, then the arm with the best mean [002 Alg. 2].
	Greedy Policy = iota
	// EpsilonFirst plays uniformly at random for a fixed number of rounds,
	// then the arm with the best mean [002 Alg. 3].
	EpsilonFirst
	// EpsilonGreedy plays uniformly at random with probability ε and the arm
	// with the best mean otherwise [002 Alg. 4].
	EpsilonGreedy
	// UCB1 plays argmax_j r̄_j + √(2 ln t / N_j(t)) [002 Eqs. 2.49–2.50;
	// Auer et al. 2002].
	UCB1
)

func (p Policy) String() string {
	switch p {
	case Greedy:
		return "greedy"
	case EpsilonFirst:
		return "epsilon-first"
	case EpsilonGreedy:
		return "epsilon-greedy"
	case UCB1:
		return "ucb1"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// MeanBandit is a stochastic (i.i.d.-reward) bandit that keeps the play
// count and mean reward of each arm. An arm never played counts as the best
// one, so every mean-based policy tries each arm once before exploiting; ties
// go to the lowest index. It is shipped for completeness and comparison
// tests; CoCaBO uses EXP3 because its rewards drift [000 §5.4.1].
type MeanBandit struct {
	policy  Policy
	epsilon float64 // EpsilonGreedy
	explore int     // EpsilonFirst: number of uniform rounds
	counts  []int
	sums    []float64
	t       int
}

// NewMeanBandit returns a bandit over n arms. param is ε ∈ [0, 1] for
// EpsilonGreedy (NaN selects DefaultEpsilon) and the number of uniform
// exploration rounds εT for EpsilonFirst; Greedy and UCB1 ignore it. It
// panics on n < 1, an unknown policy or an invalid param.
func NewMeanBandit(n int, policy Policy, param float64) *MeanBandit {
	if n < 1 {
		panic("bandit: NewMeanBandit needs n >= 1 arms")
	}
	m := &MeanBandit{policy: policy, counts: make([]int, n), sums: make([]float64, n)}
	switch policy {
	case Greedy, UCB1:
	case EpsilonGreedy:
		if math.IsNaN(param) {
			param = DefaultEpsilon
		}
		if !(param >= 0 && param <= 1) {
			panic(fmt.Sprintf("bandit: EpsilonGreedy needs ε in [0, 1], got %v", param))
		}
		m.epsilon = param
	case EpsilonFirst:
		if !(param >= 0) || param != math.Trunc(param) {
			panic(fmt.Sprintf("bandit: EpsilonFirst needs a whole number of exploration rounds >= 0, got %v", param))
		}
		m.explore = int(param)
	default:
		panic(fmt.Sprintf("bandit: unknown policy %v", policy))
	}
	return m
}

// Means returns each arm's mean reward so far (NaN for arms never played).
func (m *MeanBandit) Means() []float64 {
	out := make([]float64, len(m.sums))
	for j, s := range m.sums {
		out[j] = s / float64(m.counts[j])
		if m.counts[j] == 0 {
			out[j] = math.NaN()
		}
	}
	return out
}

// Draw chooses the next arm. Only the random policies consume rng.
func (m *MeanBandit) Draw(rng *rand.Rand) int {
	n := len(m.counts)
	switch m.policy {
	case EpsilonFirst:
		if m.t < m.explore {
			return rng.IntN(n)
		}
	case EpsilonGreedy:
		if rng.Float64() < m.epsilon {
			return rng.IntN(n)
		}
	case UCB1:
		return m.argmax(func(j int) float64 {
			return m.sums[j]/float64(m.counts[j]) + math.Sqrt(2*math.Log(float64(m.t))/float64(m.counts[j]))
		})
	}
	return m.argmax(func(j int) float64 { return m.sums[j] / float64(m.counts[j]) })
}

// argmax returns the first unplayed arm, else the arm maximising score.
func (m *MeanBandit) argmax(score func(int) float64) int {
	best, bestScore := 0, math.Inf(-1)
	for j, c := range m.counts {
		if c == 0 {
			return j
		}
		if s := score(j); s > bestScore {
			best, bestScore = j, s
		}
	}
	return best
}

// Update records reward in [0, 1] for arm. It panics if arm is out of range
// or reward is not in [0, 1].
func (m *MeanBandit) Update(arm int, reward float64) {
	checkArm(arm, len(m.counts))
	checkReward(reward)
	m.counts[arm]++
	m.sums[arm] += reward
	m.t++
}
