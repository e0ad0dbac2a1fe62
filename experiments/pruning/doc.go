// Package pruning benchmarks the pruners of package pruner on real learning
// curves: the 2,483 neural machine translation runs of NMTLC (Zhang & Duh,
// AMTA 2024; ../shared/data/nmtlc/README.md), each with its dev-set
// perplexity per checkpoint. Successive halving was studied on exactly
// these curves, and replaying recorded curves makes a pruner's savings and
// losses measurable without training anything.
//
// The data is third-party and is read in place, never copied into the
// repository: LoadNMTLC takes its path, DefaultNMTLC is its place relative
// to the repository root, and the environment variable BOA_NMTLC
// (EnvNMTLC) overrides it in the tests, which skip when the file is absent.
//
// Simulate replays one study: n traces (here the runs of one corpus,
// Run.Trace) drawn at random without replacement, trained by k
// asynchronous workers on a simulated clock where each checkpoint costs
// one unit; every trial reports its curve one checkpoint at a time (step i
// for the i-th checkpoint, value the perplexity, minimised) and the pruner
// is asked after every report, with a snapshot of the whole study as a
// real study would give it. It measures:
//
//   - cost: the checkpoints trained over all trials, against the cost
//     without pruning (the drawn curves' total length);
//   - quality: the best Quality among completed trials, here
//     perplexity_optimal (a run's lowest dev perplexity, its best
//     checkpoint), since a study keeps completed trials only, and the
//     regret against the best of all n drawn traces, which is what the
//     study finds without pruning.
//
// A Trace keeps what a trial reports apart from what it is worth, so other
// benchmarks replay their own curves: experiments/tse reports training losses
// and judges a completed trial by its test error.
//
// TestReproPruners compares no pruning, the median and 25th-percentile
// pruners, successive halving (ASHA) and Hyperband with Optuna's defaults,
// and the median pruner on TSE-EMA of the curve, on the six corpora of
// Transformers trained from scratch. NMTLC has validation curves only, so
// that last one is an exponentially weighted sum of validation losses
// (SoVL), not TSE proper, which sums training losses
// (tse-and-early-stopping.md §7). For each corpus it prints a markdown
// table of the median cost fraction, the median regret (perplexity) and the
// share of seeds whose best run survived. A small version (2 seeds, n = 30)
// runs in every go test; the full one (20 seeds, n = 100, k = 4) with
//
//	BOA_REPRO=1 go test ./experiments/pruning -run TestReproPruners -v -timeout 1h
package pruning
