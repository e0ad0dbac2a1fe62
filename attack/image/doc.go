// Package image is the BayesOpt attack on image classifiers [000 §6.3–6.5;
// Ru et al. 2020b; spec attacks §1]: a perturbation δ of low dimension
// d_r = s²C, decoded to the image's size by bilinear up-sampling g, is
// searched within ‖δ‖_∞ ≤ δ_max to maximise y(δ) [000 Eq. 6.2] of the
// victim's scores on x_adv = clip(x + g(δ), 0, 1), one query per
// iteration, stopping at the first success.
//
// Methods (Config.Method), the rows of seed 000 Table 6.1:
//
//	gpbo       GP-BO (Alg. 8): Matérn-5/2 GP, UCB μ + 2σ over the box
//	addgp      ADDGP-BO (Eq. 6.7): an additive GP over M disjoint groups,
//	           Add-GP-UCB on each group's own coordinates [004 Eqs.
//	           5.15–5.17; Kandasamy et al. 2015]; the decomposition is a
//	           hyper-parameter, the best of the current one and 20 random
//	           ones by marginal likelihood every 40 iterations [spec §1.4]
//	addgp-fd   ADDGP-BO-FD: groups of dimensions whose mean change over the
//	           last 5 queries is alike [spec §1.4, Decision]
//	auto-dr    GP-BO-auto-d_r (Alg. 9): every 40 iterations the side s is
//	           chosen among spec §1.5's candidates by the maximum marginal
//	           likelihood of a GP fitted to the queries projected onto it
//	           (bilinear down-sampling); no extra queries
//	genattack  a GenAttack-like genetic baseline (Alzantot et al. 2019;
//	           population 6, mutation rate 0.05; spec §3) in the same space
//
// Settings are the reference code's where the thesis is silent [spec
// §1.6; reference code: rubinxin/BayesOpt_Attack]: 30 Latin-hypercube
// points, GPy's non-ARD Matérn-5/2 with noise fixed at 1e-6 on
// standardised targets, 5 restarts of at most 1000 iterations every 5
// iterations (the data added at fixed hyper-parameters in between),
// 10,000 uniform candidates plus the observed points with the best 5
// refined by 100 L-BFGS iterations (5,000 per group, the best 1, for the
// additive model), κ = 2.
//
// Deviations, each a Decision: pixels in [0, 1] and x_adv clipped there
// rather than the code's (x + δ)/(1 + 2ε) rescaling, so every image the
// victim sees is within δ_max of x in L∞ [spec §1.2]; the non-ARD
// lengthscale is bounded by 2√d_r (GPy's is unbounded); the untargeted loss
// is GRABNEL's form (package attack).
package image
