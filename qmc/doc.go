// Package qmc provides quasi-random and random space-filling designs in the
// unit cube [0,1)^d: the Sobol sequence, plain uniform draws and maximin Latin
// hypercubes.
//
// Sobol points fill the cube evenly: the first 2^k points of every
// coordinate put exactly one point in each interval [j/2^k, (j+1)/2^k), and
// low-dimensional projections are stratified as well. boa uses them for the
// candidate pools of the acquisition optimiser and for initial designs
// [spec gp-and-acquisitions §6.1–6.2]. The direction numbers are those of
// Joe and Kuo, "Constructing Sobol sequences with better two-dimensional
// projections", SIAM J. Sci. Comput. 30 (2008), table new-joe-kuo-6.21201,
// shipped for the first 64 dimensions. A random digital shift (XOR with one
// random 32-bit word per coordinate) randomises the sequence while keeping
// its stratification.
//
// Latin hypercubes with the maximin criterion (best of 100 random designs)
// are the initial design of SVM-CBO and the BayesOpt attack
// [spec gp-and-acquisitions §6.2].
//
// All randomness comes from an explicit *rand.Rand (math/rand/v2): the same
// seed gives the same design.
package qmc
