// Package sampler is the contract between a study and the strategies that
// propose its trials: a Sampler suggests the next point from the History
// (the completed, running, failed and pruned trials), in the unit cube of
// the study's space. Optional interfaces add what some samplers can do:
// BatchSampler (a synchronous batch chosen jointly), Designer (which
// suggestions are model-free design points, recorded as each trial's
// Origin), SpaceChecker (refuse a space at creation) and Chooser (hand the
// suggestion to another sampler), Configurable (take a study file's
// options, sampler: {type: gpbo, acquisition: fitbo}) and Recommender
// (name the configuration the model believes best, boa best --model).
// Register makes a sampler available by name to study files, boa run, the
// server and stored studies; a user's own sampler registers the same way
// (examples/custom-sampler).
//
// The families, one package each (import sampler/all to register them all):
//
//	sampler/random        random, sobol, rs: uniform, scrambled-Sobol and
//	                      repeat-free random search
//	sampler/gpbo          gpbo, its PLAyBOOK baselines kb, cl-min and ts,
//	                      onehot-gp, and the information-theoretic fitbo,
//	                      fitbo-mm, mes, pes, kg: GP-BO with an exact GP,
//	                      hyper-parameters fitted or sampled [000 §2.1–2.3,
//	                      ch. 3; spec gp-and-acquisitions]
//	sampler/playbook      playbook (-l, -h, -ll, -hl): asynchronous batches by
//	                      penalising the acquisition around running trials
//	                      [000 ch. 4; spec async-batch-playbook]
//	sampler/tpe           tpe: the tree-structured Parzen estimator
//	                      [004 §4.1.3; spec constrained-autotinyml §6]
//	sampler/smac          smac-like: a random forest, EI maximised by local
//	                      search, every second trial random (Hutter et al.
//	                      2011; spec constrained-autotinyml §6)
//	sampler/svmcbo        svmcbo, svmcbo-rf (and -code): SVM-CBO, an SVM
//	                      learns the feasible region, a GP or a forest the
//	                      loss inside it [004 §6.2.1; spec
//	                      constrained-autotinyml §3]
//	sampler/cocabo        cocabo (-0, -0.5, -1, -auto): EXP3 agents for the
//	                      categories, a GP for the rest [000 §5.2–5.5;
//	                      spec mixed-cocabo-casmopolitan]
//	sampler/casmopolitan  casmopolitan: trust regions in Hamming distance and
//	                      in the box [000 §5.6; spec mixed-cocabo-casmopolitan]
//	sampler/nasbowl       nasbowl (-r, -ucb, -vh, -edge, -gcn): architecture
//	                      search with the WL kernel [000 ch. 7; spec
//	                      nas-graph-bo]; its baselines graph-lcb-wl, -edge,
//	                      -gcn (thesis 001's search, formerly 001-bo-*), re
//	                      and ls
//	sampler/auto          auto: chooses gpbo, cocabo or casmopolitan by the
//	                      space and the budget
//	sampler/all           imports every family, for their registration
//	sampler/internal/bo   the BO toolkit the families share: design points,
//	                      fantasies (Kriging Believer, constant liar),
//	                      acquisition maximisation, warm starts
//
// Samplers are stateless between calls as far as correctness goes: every
// Suggest recomputes what it needs from the History — the bandit weights of
// cocabo and the trust regions of casmopolitan by replaying the history in
// trial order — so a study resumes correctly after a crash. What they keep
// between calls is a cache of fitted hyper-parameters (a warm start) or
// of the configurations tried (bo.Tried); docs/performance.md, "What a
// sampler keeps between asks", says which keeps what. The
// one fact a replay cannot recompute, whether a trial's point came from
// the design or from the model, the study records with the trial as the
// sampler says it (Designer, Origin).
package sampler
