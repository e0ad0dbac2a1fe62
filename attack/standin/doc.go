// Package standin holds the stand-in victims of spec attacks §3 for boa's
// black-box attacks. The published victims (CNNs on MNIST, CIFAR-10 and
// ImageNet; GCN/GIN on the TU datasets) and their data are not available
// to the project, which has no deep-learning framework, so it trains its
// own small victims in Go:
//
//   - Digits: a CNN (DigitsNetwork: 3×3 conv of 16 filters, 2×2 max
//     pooling, dense 64, dense 10) trained by tinyml/train (Adam, 30
//     epochs of batches of 32) on sklearn's 8×8 digits, pixels scaled by
//     1/16 into [0, 1], a stratified 70/30 split drawn from the seed. The
//     data is read in place from ../shared/data/sklearn-datasets beside
//     the module root, or from $BOA_DIGITS.
//
// Measured (seed 1, 2 cores): digits test accuracy 97.96 % on 539 held-out
// images (seeds 2–5: 96.85–97.59 %), training about 2 s. The command
//
//	go test -v -run 'TestDigitsVictim' ./attack/standin/
//
// prints them.
package standin
