// Package acq implements acquisition functions for Bayesian optimisation.
//
// Every function is written for the project's convention: the objective is
// minimised and the acquisition is maximised (a large α(x) marks an
// attractive point). With incumbent y* (the best observed value), latent
// posterior mean μ(x), standard deviation σ(x) and exploration offset ξ,
// z = (y* − μ − ξ)/σ and
//
//	PI      α = Φ(z)                         [000 Eq. 2.15; 004 Eqs. 4.19–4.20]
//	log-PI  α = log Φ(z)
//	EI      α = σ (zΦ(z) + φ(z))             [000 Eqs. 2.16–2.17; 002 Eq. 2.46]
//	log-EI  α = log σ + log h(z), h(z) = φ(z) + zΦ(z)
//	LCB     α = κσ − μ                       [000 Eq. 2.20; 002 Eqs. 2.47–2.48]
//	KG      α = min_A μ − E[min_A (μ + bZ)]  [000 Eq. 2.18; spec §4.3]
//	FITBO   α = H[(1/M)Σ_j N(μ_j, v_j)] − (1/M)Σ_j ½ log(2πe v_j), H by quadrature  [000 Eq. 3.10, Alg. 3; spec §4.6]
//	FITBO-MM α = ½ log(2πe v_G) − (1/M)Σ_j ½ log(2πe v_j), v_G the mixture variance  [000 Eqs. 3.14–3.15; spec §4.6]
//	PoF     P_j = Φ(−μ_j/σ_j)                (Gardner et al. 2014; Gelbart et al. 2014)
//	log cEI α = log EI + Σ_j log P_j          (Gardner et al. 2014; Ament et al. 2023)
//	no feasible point yet: α = Σ_j log P_j   (Gardner et al. 2014)
//	MES     α = (1/K)Σ_k [γ_kφ(γ_k)/(2Φ(γ_k)) − log Φ(γ_k)],  γ_k = (μ − f*_k)/σ
//	                                         (Wang & Jegelka 2017; spec §4.5)
//	PES-lite α = ½log(σ² + σ_n²) − (1/J)Σ_j ½log(v_j + σ_n²)   (spec §4.5, Decision)
//	         v_j = σ² − (c_j²/s_j²)λ_j(λ_j + β_j), see PESLite
//	TS-rff  x = argmin of an RFF sample path  [000 §2.3.1; 004 Eqs. 4.6–4.8]
//
// For constrained studies (Constrained, Feasible), μ_j and σ_j are the
// posterior of a GP fitted to the slack of constraint j (≤ 0 where it
// holds); the classifier of computability is one more such factor, a GP
// on labels ±1 (least-squares classification, Rasmussen & Williams 2006
// §6.5). A confidence bound enters as log Softplus of its standardised
// value [002 Eq. 4.17].
//
// The log forms stay finite and accurate far in the tails, where EI and PI
// underflow to zero and give an optimiser no gradient. They rest on the
// scaled complementary error function Erfcx, which Go's math package lacks.
//
// Gradients with respect to the input follow by the chain rule through
// ∂μ/∂x and ∂σ²/∂x from the surrogate (Model.PredictGrad).
//
// For FITBO, sample j of M has μ_j = η_j + ½m_g², v_j = m_g²K_g + σ_n²(j),
// with m_g, K_g the posterior of its raw GP on g = √(2(y − η_j)) (FITBO).
//
// Thompson draws one joint posterior sample on a candidate set and returns
// its argmin [000 §2.3.1; 004 §4.2].
//
// Penalised multiplies an acquisition, made positive (Softplus, Offset),
// by one Penalty per busy point, a point under evaluation: the local
// penaliser LP of González et al. or PLAyBOOK's hard penaliser HLP, whose
// exclusion radii come from a Lipschitz constant of the objective that
// Lipschitz estimates from the posterior mean's largest slope
// [000 Ch. 4; 002 Ch. 4].
//
// "spec §N" in this package is a section of spec gp-and-acquisitions (§4,
// acquisition functions), or, for Penalty and Lipschitz, of spec
// async-batch-playbook (§3 penalisers, §4 Lipschitz constants).
package acq
