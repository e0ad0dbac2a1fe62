// Package bohb is the BOHB-like baseline of spec constrained-autotinyml §6
// (Falkner, Klein & Hutter 2018): Hyperband (η = 3) over a trial's steps,
// the epochs of its training, with a multivariate kernel density model in
// place of Hyperband's random configurations. In boa the Hyperband part is
// the study's pruner (`pruner: {type: hyperband, ...}`, pruner.Hyperband,
// as Optuna's users build BOHB-like from TPESampler and HyperbandPruner);
// this package is the model. It reads the values every trial reported at
// every step (sampler.History.Partial, sampler.MultiFidelity), fits a
// "good" and a "bad" density on the largest budget that has enough of
// them, and proposes the candidate maximising l(x)/g(x). The constants
// and the choices the spec leaves open are on BOHB and in
// docs/samplers.md, "BOHB".
package bohb
