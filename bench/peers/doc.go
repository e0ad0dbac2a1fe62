// Package peers runs other optimisers side by side with boa's samplers, on
// the same search spaces, for the benchmark harness (DESIGN.md §2.5; peers
// and versions in ../shared/specs/peers-and-benchmarks.md §1.4, §4).
//
// Nine peers, each driven through the same ask/tell Session:
//
//	goptuna-tpe    Goptuna v0.9.0 TPE, in-process
//	goptuna-cmaes  Goptuna v0.9.0 CMA-ES, in-process
//	optuna-tpe     Optuna TPESampler(seed)
//	optuna-tpe-cl  Optuna TPESampler(seed, constant_liar=True), for parallel workers
//	optuna-tpe-c   Optuna TPESampler(seed, constraints_func=...) over the metrics a
//	               trial reported (user attributes "metric:NAME"), for constrained problems
//	optuna-cmaes   Optuna CmaEsSampler(seed, independent RandomSampler(seed))
//	optuna-random  Optuna RandomSampler(seed)
//	optuna-nsga2   Optuna NSGAIISampler(seed), population 50 (Deb et al. 2002)
//	optuna-motpe   Optuna MOTPESampler(seed), 10 random start-up trials
//
// The last two are multi-objective; they, and optuna-random, also run a
// study of several objectives (NewMulti: the directions, as Optuna's
// create_study takes them, and a tell of every objective's value,
// MultiSession), which the harness's multi-objective problems use.
//
// A Session asks for one configuration at a time (Ask, Tell), or keeps
// several out and takes their values in any order (AskTrial, TellTrial),
// as asynchronous workers do; the samplers then see the running trials as
// Optuna's do: not at all, except the constant liar's.
//
// The goptuna peers drive a study with in-memory storage through its
// storage calls (create a trial, suggest, set the value and state), with
// goptuna's logger silenced. The Optuna peers run Debian's python3-optuna
// (3.1.0 on bookworm) in one long-lived Python process per Session, which
// executes the embedded script optuna_adapter.py and exchanges JSON lines
// with it (the protocol is in the script's docstring) using study.ask and
// study.tell. Each exchange times out after a minute; a process that dies
// yields an error quoting its exit status and last stderr lines; Close kills
// the process and waits for it. scripts/install-peers.sh installs
// python3-optuna.
//
// # Finding Python
//
// $BOA_PYTHON when set (and nothing else); otherwise /usr/bin/python3, where
// Debian installs Optuna, then python3 on PATH (often a pyenv or virtualenv
// interpreter without Debian's packages). The first that imports Optuna 3 or
// later is used; Available's note names it and Optuna's version (boa bench
// prints it), or lists what each candidate said when none can. Python
// runs with PYTHONHASHSEED=0 so that equal seeds give equal runs, and with
// one BLAS thread unless the caller's environment says otherwise.
//
// # Parameters in each peer's native form
//
// Float: a uniform or log-uniform float (goptuna Uniform/LogUniform
// distributions, Optuna suggest_float(log=...)).
//
// Int: an integer range (goptuna IntUniformDistribution, Optuna
// suggest_int). Log-scale Int: Optuna has suggest_int(log=True); goptuna
// v0.9.0 has no log-int distribution, so the peer suggests a log-uniform
// float on [low−½, high+½] and rounds it, which gives every integer its
// log-scale cell [v−½, v+½) as Optuna's TPE and boa's encoding do. A
// linear integer range would hand goptuna a different problem (on [1, 1024]
// nine draws in ten would exceed 100).
//
// Ordinal: when the values are evenly spaced as written in decimal (0, 0.3,
// 0.6; 16, 32, 48), a stepped numeric parameter, which keeps their order and
// scale: goptuna DiscreteUniformDistribution; Optuna suggest_int(step) for
// whole values within ±2⁵³, else suggest_float(step). Otherwise (1, 2, 4,
// 8; 1e-4, 1e-3, 1e-2), and where Optuna's own decimal check would drop the
// top value of a float step, the integer index of the value (goptuna
// IntUniformDistribution, Optuna suggest_int over 0..n−1), which keeps the
// order, is the log scale of a geometric grid, and is how boa encodes an
// ordinal (by level). A categorical would lose the order: CMA-ES samples a
// categorical at random and TPE learns each value apart, up to 2× worse
// on log-spaced grids (issue 37). Either way the answer is snapped to the
// nearest declared value.
//
// Categorical and Bool: categorical distributions (Bool over false, true).
//
// Conditional parameters are suggested define-by-run: in an order where
// parents come before children (declaration order otherwise), and a child
// only when each of its parents is active and takes a listed value.
//
// # CMA-ES, categoricals and conditions
//
// Both CMA-ES peers model only the numeric parameters and sample the rest
// with an independent random sampler, as both libraries do by default. For
// goptuna the CMA-ES search space is declared up front
// (StudyOptionDefineSearchSpace) as every unconditional parameter: goptuna's
// default, the intersection of the spaces of completed trials, panics on
// categorical distributions in v0.9.0 and would drop parameters whenever a
// conditional child is inactive. Optuna 3.1 offers no such declaration, so
// optuna-cmaes keeps Optuna's intersection space: on a conditional space
// CMA-ES may fall back to random sampling for the rest of the run once the
// space shrinks ("does not support dynamic search space"), which is what an
// Optuna user gets. With fewer than two numeric parameters both libraries
// sample everything independently.
//
// # Reproducibility
//
// Equal seeds give equal runs for the Optuna peers and goptuna-cmaes.
// goptuna-tpe repeats only its first 10 (random start-up) trials: goptuna
// v0.9.0 draws from math/rand's global source, which Go seeds at random and
// which the whole process shares, when choosing a Parzen mixture component
// and when sampling categorical parameters in TPE. The random categorical
// draws of goptuna's RandomSampler, which has the same flaw, are made here
// from a generator seeded with the run's seed instead (the distribution is
// unchanged: uniform over the choices). Goptuna's other known quirk is left
// as it is: its RandomSampler never draws the upper bound of an
// IntUniformDistribution.
//
// Optuna seeds are taken modulo 2³² (NumPy's limit), so seeds below 2³²
// reach Optuna unchanged.
package peers
