"""Runs boa's nsga2 parity scenarios through Optuna 3.1's NSGAIISampler.

Read by parity_test.go. stdin is a JSON list of scenarios, each
{"population", "objectives", "constrained", "crossover" (uniform or sbx), "space": [[name, kind, args]],
"trials": [{"params": [[name, value]], "values": [...] or null (failed),
"constraints": [...] or null}], "pairs": [[i, j]], "children": [[u, ...]]}.

Each trial is added in order with the generation Optuna's sequential run
gives it (the completed trials before it, divided by the population), and
after each full generation the sampler's _collect_parent_population names
the parents. On the last full generation with the parents before it (the
population _select_elite_population sorts) the script records the fronts of
_fast_non_dominated_sort, each front's _calc_crowding_distance and its
order after _crowding_distance_sort. On the last parents, _select_parent
is given each pair of candidate positions, and sample_relative each list
of uniform draws in "children", through a generator that replays them
(choice(n) is int(u·n)). stdout is one JSON object per scenario; infinite
distances are written as 1e308.
"""

import json
import math
import sys
import warnings

warnings.simplefilter("ignore")

import numpy as np  # noqa: E402
import optuna  # noqa: E402
from optuna.distributions import CategoricalDistribution  # noqa: E402
from optuna.distributions import FloatDistribution  # noqa: E402
from optuna.distributions import IntDistribution  # noqa: E402
from optuna.samplers._base import _CONSTRAINTS_KEY  # noqa: E402
from optuna.samplers.nsgaii import _crossover  # noqa: E402
from optuna.samplers.nsgaii._sampler import _GENERATION_KEY  # noqa: E402
from optuna.samplers.nsgaii._sampler import _calc_crowding_distance  # noqa: E402
from optuna.samplers.nsgaii._sampler import _constrained_dominates  # noqa: E402
from optuna.samplers.nsgaii._sampler import _crowding_distance_sort  # noqa: E402
from optuna.study._multi_objective import _dominates  # noqa: E402
from optuna.trial import TrialState  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.ERROR)


class Replay:
    """A numpy RandomState stand-in that returns the given uniforms."""

    def __init__(self, us):
        self.us, self.used = list(us), 0

    def _next(self):
        u = self.us[self.used]
        self.used += 1
        return u

    def rand(self, *size):
        if not size:
            return self._next()
        return np.array([self._next() for _ in range(size[0])])

    def choice(self, n):
        return int(self._next() * n)


def distribution(kind, args):
    if kind == "float":
        return FloatDistribution(args[0], args[1], log=args[2])
    if kind == "int":
        return IntDistribution(args[0], args[1], log=args[2])
    return CategoricalDistribution(args)


def finite(d):
    return d if math.isfinite(d) else 1e308


def run(sc):
    pop_size = sc["population"]
    sampler = optuna.samplers.NSGAIISampler(
        population_size=pop_size,
        crossover=optuna.samplers.nsgaii.SBXCrossover() if sc["crossover"] == "sbx" else None,
        constraints_func=(lambda t: [0.0]) if sc["constrained"] else None,
    )
    study = optuna.create_study(directions=["minimize"] * sc["objectives"], sampler=sampler)
    dists = {name: distribution(kind, args) for name, kind, args in sc["space"]}
    dominates = _constrained_dominates if sc["constrained"] else _dominates
    out = {"parents": []}
    completed = 0
    before = []  # the parents the last full generation was selected with
    for t in sc["trials"]:
        attrs = {_GENERATION_KEY: completed // pop_size}
        if t["constraints"] is not None:
            attrs[_CONSTRAINTS_KEY] = t["constraints"]
        params = {name: value for name, value in t["params"]}
        trial = optuna.trial.create_trial(
            state=TrialState.COMPLETE if t["values"] is not None else TrialState.FAIL,
            values=t["values"],
            params=params,
            distributions={name: dists[name] for name in params},
            system_attrs=attrs,
        )
        study.add_trial(trial)
        if t["values"] is None:
            continue
        completed += 1
        if completed % pop_size == 0:
            before = out["parents"][-1] if out["parents"] else []
            gen, parents = sampler._collect_parent_population(study)
            assert gen == completed // pop_size - 1, (gen, completed)
            out["parents"].append([p.number for p in parents])
    # The population the last elite selection sorted: the last full
    # generation's completed trials, then the parents before them.
    trials = study.get_trials(deepcopy=False)
    done = [tr for tr in trials if tr.state == TrialState.COMPLETE]
    full = (len(done) // pop_size) * pop_size
    pop = done[full - pop_size : full] + [trials[n] for n in before]
    fronts = sampler._fast_non_dominated_sort(list(pop), study.directions)
    out["fronts"] = [[tr.number for tr in f] for f in fronts]
    out["crowding"] = [
        [[n, finite(d)] for n, d in _calc_crowding_distance(list(f)).items()] for f in fronts
    ]
    sorted_fronts = []
    for f in fronts:
        f = list(f)
        _crowding_distance_sort(f)
        sorted_fronts.append([tr.number for tr in f])
    out["sorted"] = sorted_fronts
    parents = [trials[n] for n in out["parents"][-1]]
    out["winners"] = []
    for i, j in sc["pairs"]:
        rng = Replay([(i + 0.5) / len(parents), (j + 0.5) / len(parents)])
        out["winners"].append(_crossover._select_parent(study, parents, rng, dominates).number)
    out["children"] = []
    for us in sc["children"]:
        trial_id = study._storage.create_new_trial(study._study_id)
        frozen = study._storage.get_trial(trial_id)
        search_space = sampler.infer_relative_search_space(study, frozen)
        sampler._rng = Replay(us)
        params = sampler.sample_relative(study, frozen, search_space)
        out["children"].append({"params": params, "used": sampler._rng.used})
    return out


def main():
    json.dump([run(sc) for sc in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
