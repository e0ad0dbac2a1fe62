"""Replays boa's parity scenarios through Optuna's own pruners.

Read by optuna_parity_test.go: stdin is a JSON list of scenarios, each
{"name", "direction", "pruner": pruner.Spec as JSON, "curves": [[[step,
value or null for NaN], ...] per trial], "order": [trial index, ...]}.
Each index in order is that trial's next action: the first asks it, the
next ones report the points of its curve one by one, each followed by
should_prune (a trial told to prune is told PRUNED and skips the rest),
and the one after the last point tells it COMPLETE. stdout is a JSON list
of the should_prune decisions of each scenario, in order.
"""

import json
import math
import sys
import warnings

warnings.simplefilter("ignore")

import optuna  # noqa: E402
from optuna.trial import TrialState  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.ERROR)


def make_pruner(spec):
    kw = {k: v for k, v in spec.items() if k != "type"}
    kind = spec["type"]
    if kind == "median":
        return optuna.pruners.MedianPruner(**kw)
    if kind == "percentile":
        return optuna.pruners.PercentilePruner(**kw)
    if kind == "successive_halving":
        return optuna.pruners.SuccessiveHalvingPruner(**kw)
    if kind == "hyperband":
        return optuna.pruners.HyperbandPruner(**kw)
    if kind == "threshold":
        return optuna.pruners.ThresholdPruner(**kw)
    raise ValueError("no Optuna pruner for type %r" % kind)


def run(sc):
    study = optuna.create_study(
        study_name=sc["name"],
        direction=sc["direction"],
        pruner=make_pruner(sc["pruner"]),
        sampler=optuna.samplers.RandomSampler(seed=0),
    )
    curves = sc["curves"]
    trials, pos, done, out = {}, {}, set(), []
    for i in sc["order"]:
        if i in done:
            continue
        if i not in trials:
            trial = study.ask()
            assert trial.number == i, (trial.number, i)
            trials[i], pos[i] = trial, 0
            continue
        trial = trials[i]
        if pos[i] < len(curves[i]):
            step, value = curves[i][pos[i]]
            pos[i] += 1
            trial.report(math.nan if value is None else value, step)
            prune = bool(trial.should_prune())
            out.append(prune)
            if prune:
                study.tell(trial, state=TrialState.PRUNED)
                done.add(i)
        else:
            study.tell(trial, 0.0)
            done.add(i)
    return out


def main():
    scenarios = json.load(sys.stdin)
    json.dump([run(sc) for sc in scenarios], sys.stdout)


if __name__ == "__main__":
    main()
