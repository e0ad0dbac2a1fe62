// Package cocabo is CoCaBO (seed 000 §5.2–5.5, Algs. 5–6; seed 002 ch. 5;
// spec mixed-cocabo-casmopolitan §1–4): one EXP3 agent per categorical
// variable chooses the categories, and a GP on the mixture kernel of the
// categorical overlap and the continuous Matérn chooses the rest, with λ
// fixed (cocabo-0, -0.5, -1) or learned (cocabo-auto, also named cocabo),
// and a batch mode with EXP3.M (SuggestBatch). Its bandits are replayed
// from the history at every call (replayEXP3), so it keeps no state.
// docs/cocabo.md has its measurements and its limits.
package cocabo
