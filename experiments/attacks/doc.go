// Package attacks is the stand-in experiment for the black-box attacks of
// seed 000 ch. 6 (spec attacks §3): the published victims and datasets
// (MNIST, CIFAR-10, ImageNet; TU graphs) are not available, so the attacks
// run against the victims of package attack/standin, trained in Go — a CNN
// on sklearn's 8×8 digits and a GCN on Erdős–Rényi graphs — and the
// published numbers are not reproduced; what is measured is the pipeline
// and the relative findings. docs/attacks.md holds the tables and the
// commands that produce them.
//
// Images (ImageProtocol): the first correctly classified test digits, each
// attacked towards other classes, δ_max = 0.3, the side s = 4 (d_r = 16,
// the half side of spec §1.6). The L2 figure is ‖x_adv − x‖₂ divided by
// the number of pixels d, as the seed's "average L2 perturbation per
// pixel" is read here.
package attacks
