// Package kernel provides covariance functions for Gaussian-process surrogates.
//
// A Kernel k(x, x') stores its hyper-parameters θ as natural logarithms, because
// the marginal-likelihood optimiser in package gp works on log θ inside box
// bounds [spec gp-and-acquisitions §2, §3.2]. Every kernel returns, besides its
// value, the derivatives ∂k/∂(log θ_j) needed by the gradient of the log
// marginal likelihood [000 Eq. 2.10; 002 Eqs. 2.36–2.41] and the input gradient
// ∂k(x, x')/∂x needed by gradient-based acquisition optimisation and by the
// posterior gradients of spec §1.2.
//
// The stationary families are RBF (squared exponential), Matérn-1/2, -3/2,
// -5/2 and rational quadratic, each with one lengthscale per input (ARD) or a
// single shared one [000 Eq. 2.9; 002 Eqs. 2.26–2.32; 004 Eqs. 4.9–4.14].
// Matérn-1/2 is shipped as the "exponential" kernel; the non-standard
// exp(−r/(2ℓ²)) of [004 Eq. 4.14] is not. Sums and products of kernels are
// kernels [000 §2.1.1] and are built with NewSum and NewProduct.
//
// Categorical and mixed inputs (category indices stored as numbers): the
// overlap kernel Overlap [000 Eq. 5.7], the exponentiated overlap
// ExpOverlap [000 Eq. 5.11], the CoCaBO Mixture (1−λ)(k_h + k_x) + λ k_h k_x
// [000 Eq. 5.10, App. C.2], and Subset to apply a kernel to some columns.
// Mixture stores λ itself, not its logarithm, with bounds [0, 1].
//
// Kernels are not safe for concurrent mutation (SetParams); Eval, ParamGrad
// and InputGrad of the kernels in this package do not mutate state and may be
// called concurrently.
//
// Bind fixes a kernel to one set of inputs as a Gram, evaluated by index,
// for the GP fit that evaluates it on the same pairs at hundreds of
// hyper-parameter values. The kernels of this package except Overlap have
// Grams of their own that do once what does not depend on the parameters
// and reuse each pair's value from Eval in the ParamGrad that follows, with
// the same numbers to the last bit; a Gram is not safe for concurrent use.
package kernel
