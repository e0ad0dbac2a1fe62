// Package bandit provides the adversarial multi-armed bandits used by the
// mixed categorical–continuous samplers: EXP3, its multiple-play variant
// EXP3.M, and dependent rounding (DepRound) for drawing a fixed-size set of
// distinct arms with prescribed marginals.
//
// EXP3 follows Auer et al. (2002) as restated in [000 Alg. 4] and [002 Alg. 5]:
// p_j = (1 − γ) w_j/Σw + γ/N, and the played arm's weight is multiplied by
// exp(γ ĝ/N) with the importance-weighted reward ĝ = g/p_j. EXP3.M (Uchiya et
// al. 2010; [002 Alg. 6]) plays b distinct arms per round; weights that would
// make some p_i exceed 1 are capped at a threshold α_t and the capped arms are
// frozen for that round. DepRound is the dependent-rounding scheme of Gandhi,
// Khuller, Parthasarathy and Srinivasan, "Dependent rounding and its
// applications to approximation algorithms", J. ACM 53(3), 2006, used by
// [002 Alg. 6] to turn the marginals p (Σp = b) into exactly b arms.
//
// CoCaBO (seed 000 §5.4) runs one EXP3 agent per categorical variable in
// sequential mode and one EXP3.M agent per variable in batch mode; TunedGamma
// and BatchGamma give the exploration rates used by its reference code.
//
// Numerics: weights are stored as logarithms and exponentiated only after the
// largest log-weight is subtracted, so long runs never overflow.
//
// Rewards must lie in [0, 1]; callers normalise them (mixed spec §4.1). An
// out-of-range reward, an arm index out of range or mismatched slice lengths
// are programmer errors and panic. The agents are not safe for concurrent use.
//
// The classical stochastic bandits of [002 §2.4] (greedy, ε-first, ε-greedy,
// UCB1) are provided as MeanBandit for completeness and tests; CoCaBO does not
// use them because its rewards are non-stationary [000 §5.4.1].
//
// "spec §N" in this package is a section of spec mixed-cocabo-casmopolitan
// (§2 bandits).
package bandit
