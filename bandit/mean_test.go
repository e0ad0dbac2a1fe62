package bandit

import (
	"math"
	"testing"
)

func TestMeanBanditPolicies(t *testing.T) {
	means := []float64{0.3, 0.8, 0.5}
	for _, tc := range []struct {
		policy Policy
		param  float64
		minHit float64 // share of the last 500 of 1500 rounds on the best arm
	}{
		{EpsilonGreedy, math.NaN(), 0.85}, // default ε = 0.1
		{EpsilonFirst, 150, 0.99},
		{UCB1, 0, 0.8},
	} {
		rng := newRNG(17)
		m := NewMeanBandit(len(means), tc.policy, tc.param)
		hits := 0
		for r := 0; r < 1500; r++ {
			a := m.Draw(rng)
			var reward float64
			if rng.Float64() < means[a] {
				reward = 1
			}
			m.Update(a, reward)
			if r >= 1000 && a == 1 {
				hits++
			}
		}
		if f := float64(hits) / 500; f < tc.minHit {
			t.Errorf("%v: best arm share %.3f, want >= %.2f", tc.policy, f, tc.minHit)
		}
	}
}

func TestGreedyPlaysEachArmOnceThenBest(t *testing.T) {
	m := NewMeanBandit(4, Greedy, 0)
	rewards := []float64{0.2, 0.9, 0.4, 0.1}
	rng := newRNG(1)
	for want := 0; want < 4; want++ {
		if a := m.Draw(rng); a != want {
			t.Fatalf("exploration round %d played arm %d", want, a)
		}
		m.Update(want, rewards[want])
	}
	for r := 0; r < 5; r++ {
		if a := m.Draw(rng); a != 1 {
			t.Fatalf("greedy played %d, want 1", a)
		}
	}
	if got := m.Means(); got[1] != 0.9 {
		t.Errorf("Means = %v", got)
	}
}

func TestMeanBanditPanics(t *testing.T) {
	mustPanic(t, "epsilon", "ε in [0, 1]", func() { NewMeanBandit(3, EpsilonGreedy, 2) })
	mustPanic(t, "rounds", "whole number", func() { NewMeanBandit(3, EpsilonFirst, 1.5) })
	mustPanic(t, "policy", "unknown policy", func() { NewMeanBandit(3, Policy(9), 0) })
	mustPanic(t, "reward", "outside [0, 1]", func() { NewMeanBandit(3, UCB1, 0).Update(0, 3) })
}
