// Package train is stand-in (a) of spec constrained-autotinyml §5.7: real
// training, in Go, of the networks AutoTinyML searches (tinyml.Network:
// Conv2D, MaxPooling2D, Dropout, Flatten, Dense) on seeded synthetic data
// shaped like the thesis's datasets, which the project does not have: a
// HAR-like set of 90×3 accelerometer windows in 6 classes (HARLike) and a
// fill-level set of 32×32×3 bottle images in 4 classes (FillLevel), 2,000
// training, 500 validation and 500 test examples each.
//
//	s := train.HARLike(1)
//	acc, err := train.Fit(net, "adam", s.Train, s.Val, train.Config{}, 7, nil) // validation accuracy after each epoch, %
//	test, err := train.Test(net, "adam", s, train.Config{}, 7)                 // retrained on train + validation
//
// Softmax cross-entropy, Keras's initialisation (Glorot uniform, zero
// biases) and its optimisers with their default settings; 3 epochs of
// batches of 32 by default (the spec's Decision). One training runs on one
// goroutine and the same seed gives the same accuracies; run trainings in
// parallel for more cores.
package train
