// Package bo is the toolkit the GP-based sampler families share: the
// initial designs and the rule that ends them (SobolPoint, InDesign), the
// points without a value added to a model (Believe, Lie: Kriging Believer
// and the constant liar [000 App. B.1, Alg. 17]), the maximisation of an
// acquisition over a mixed space (MaximizeAcquisition), the warm start
// of hyper-parameter fits (WarmStart), and the models of feasibility and
// computability that weight an acquisition (Feasibility). It is
// internal: its functions may change with the samplers that use them.
package bo
