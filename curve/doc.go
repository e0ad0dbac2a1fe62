// Package curve holds estimators of a trial's final quality from the
// beginning of its learning curve: training-speed estimation (TSE) of Ru,
// Lyle et al., "Speedy performance estimation for neural architecture
// search" (seed 000 ch. 8, §8.2.2, Eq. 8.1; spec tse-and-early-stopping
// §2), and the effective training budget of Algorithm 12 (§8.4.2, spec §3).
//
// A curve is one value per step (an epoch's mean minibatch training loss
// for TSE; a validation loss for SoVL, which is TSE applied to those), in
// step order, lower better. The estimators sum it: the area under the
// training curve measures how fast a model learns, which ranks
// architectures under one training set-up better than an early
// validation accuracy does [000 §8.4].
package curve
