// Package gpbo is GP-based Bayesian optimisation (seed 000 §2.1–2.3, seed
// 002 §2.1–2.3; spec gp-and-acquisitions §1–6): a Matérn-5/2 ARD GP
// fitted by MAP to standardised targets, log-EI (or EI, PI, LCB, GP-UCB,
// Thompson sampling) maximised by sample-then-refine, a Sobol design of
// max(5, d+1) points, and Kriging Believer for the trials without a value
// (docs/gp-defaults.md explains every default).
//
// The registry's names: gpbo (New); kb and cl-min, the same GP with the
// confidence bound κ = 2 and Kriging Believer or the constant liar, and
// ts, Thompson sampling that leaves running trials out, the baselines of
// the PLAyBOOK experiments (seed 000 §4.6.1; spec async-batch-playbook
// §2, §5); and onehot-gp (NewOneHot), the one-hot GP baseline of the
// mixed-space papers (mixed spec §4.4).
//
// The acquisition and the treatment of the hyper-parameters are options
// (options.go, Configure): FITBO and FITBO-MM [000 Ch. 3], MES, PES-lite
// and the knowledge gradient (spec §4.3–4.6), registered as fitbo,
// fitbo-mm, mes, pes and kg too; any acquisition averaged over M samples
// of the hyper-parameters drawn by elliptical slice sampling
// (marginalise: ess, spec §3.3); and Thompson sampling by random Fourier
// features (infotheoretic.go; docs/infotheoretic.md). Recommend is
// x̂ = argmin μ [000 §3.3.3; spec §7].
//
// In a constrained study, or once trials have failed, the acquisition is
// weighted by the probability that a point is feasible and computes: one
// GP per constraint on the slacks and a GP classifier of computability,
// in log space (GPBO.Factors; constrained EI of Gardner et al. 2014 with
// the best feasible value as incumbent; docs/samplers.md,
// "Constraints").
package gpbo
