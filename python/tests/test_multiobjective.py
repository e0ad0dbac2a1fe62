"""boa_client against a real boa serve: studies of several objectives
(issue 43, docs/multiobjective.md): created with directions, told a value
per objective, optimized with an objective that returns a tuple, read as
the Pareto front."""

from __future__ import annotations

import math
import os
import tempfile
import unittest
import warnings
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from boaserver import BoaServer

import boa_client
from boa_client import BadRequestError, MultiObjectiveError, NotFoundError


def mo_spec(name: str, trials: int, directions: object, **extra: object) -> Dict[str, object]:
    """A small study of several objectives: one float, one int, the random
    sampler (it models any number of objectives), seeded; directions None
    for a study of one objective."""
    spec: Dict[str, object] = {
        "name": name,
        "sampler": "random",
        "seed": 1,
        "trials": trials,
        "space": {"x": {"type": "float", "low": 0, "high": 1}, "n": {"type": "int", "low": 1, "high": 4}},
    }
    if directions is not None:
        spec["directions"] = directions
    spec.update(extra)
    return spec


ACC_LAT = {"accuracy": "maximize", "latency": "minimize"}


def accuracy_latency(x: float, n: int) -> Tuple[float, float]:
    """A trade-off: accuracy grows with x and n, latency too."""
    return 1 - (1 - x) ** 2 / n, x * n + 0.1 * n


def non_dominated(points: Mapping[int, Sequence[float]], directions: Sequence[str]) -> List[int]:
    """The keys of the points no other point beats in every objective, by
    the definition (Deb et al. 2002): b dominates a when it is no worse in
    every objective and better in one."""
    sign = [1.0 if d == "minimize" else -1.0 for d in directions]

    def dominates(b: Sequence[float], a: Sequence[float]) -> bool:
        no_worse = all(s * bv <= s * av for s, bv, av in zip(sign, b, a))
        better = any(s * bv < s * av for s, bv, av in zip(sign, b, a))
        return no_worse and better

    return sorted(k for k, a in points.items() if not any(dominates(b, a) for j, b in points.items() if j != k))


class MultiObjectiveTest(unittest.TestCase):
    server: BoaServer

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = BoaServer().start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def client(self) -> boa_client.Client:
        return boa_client.Client(self.server.url, token="")

    def test_create_with_directions(self) -> None:
        c = self.client()
        # A mapping keeps the order written (latency first here, not sorted).
        s = c.create_study(mo_spec("mo-create", 5, {"latency": "minimize", "accuracy": "maximize"}))
        for st in (s, c.open_study("mo-create"), c.study("mo-create")):
            self.assertTrue(st.is_multi_objective)
            self.assertEqual(st.objective_names, ["latency", "accuracy"])
            self.assertEqual(st.directions, ["minimize", "maximize"])
        self.assertEqual(s.summary()["objectives"],
                         [{"name": "latency", "direction": "minimize"}, {"name": "accuracy", "direction": "maximize"}])
        # A list of senses: the objectives are value_0, value_1.
        s = c.create_study(mo_spec("mo-list", 5, ["maximize", "minimize"]))
        self.assertEqual(s.objective_names, ["value_0", "value_1"])
        self.assertEqual(s.directions, ["maximize", "minimize"])
        # A study of one objective.
        one = c.create_study(mo_spec("mo-one", 5, None, direction="maximize"))
        self.assertFalse(one.is_multi_objective)
        self.assertEqual((one.objective_names, one.directions), (["value"], ["maximize"]))

    def test_create_from_yaml_file(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mo.yaml")
            with open(path, "w") as f:
                f.write("name: mo-yaml\nsampler: random\ntrials: 3\n"
                        "directions: {accuracy: maximize, latency: minimize}\n"
                        "space:\n  x: {type: float, low: 0, high: 1}\n")
            s = self.client().create_study(path)
        self.assertEqual(s.objective_names, ["accuracy", "latency"])
        self.assertEqual(s.directions, ["maximize", "minimize"])

    def test_bad_directions_carry_the_servers_message(self) -> None:
        c = self.client()
        with self.assertRaises(BadRequestError) as cm:
            c.create_study(mo_spec("mo-bad", 5, {"accuracy": "upward", "latency": "minimize"}))
        self.assertIn("directions", cm.exception.message)
        self.assertIn("upward", cm.exception.message)
        with self.assertRaises(BadRequestError) as cm:
            c.create_study(mo_spec("mo-both", 5, ACC_LAT, direction="minimize"))
        self.assertIn("give direction (one objective) or directions (several), not both", cm.exception.message)
        with self.assertRaises(BadRequestError) as cm:  # a sampler of one objective
            c.create_study(mo_spec("mo-tpe", 5, ACC_LAT, sampler="tpe"))
        self.assertIn("sampler tpe optimises one objective, and the study has 2 (accuracy, latency)",
                      cm.exception.message)

    def test_optimize_with_a_tuple_objective(self) -> None:
        s = self.client().create_study(mo_spec("mo-opt", 16, ACC_LAT))
        returned: Dict[int, Tuple[float, float]] = {}

        def objective(t: boa_client.Trial) -> Tuple[float, float]:
            returned[t.number] = accuracy_latency(t["x"], t["n"])
            return returned[t.number]

        self.assertEqual(s.optimize(objective), 16)
        trials = s.trials()
        self.assertEqual([t.state for t in trials], ["COMPLETE"] * 16)
        for t in trials:
            assert t.values is not None
            self.assertEqual(t.values, list(returned[t.number]))
            self.assertEqual(t.values, list(accuracy_latency(t.params["x"], t.params["n"])))
            self.assertEqual(t.value, t.values[0])  # the first objective's
        # The front is the non-dominated set, in trial order, and the
        # summary's front names the same trials.
        front = non_dominated({t.number: t.values for t in trials if t.values}, s.directions)
        self.assertGreater(len(front), 1)
        self.assertLess(len(front), 16)
        best = s.best_trials()
        self.assertEqual([t.number for t in best], front)
        self.assertEqual([t.values for t in best], [list(returned[n]) for n in front])
        self.assertEqual(s.summary()["front"], front)
        # No one best trial: best() says to use best_trials().
        with self.assertRaises(MultiObjectiveError) as cm:
            s.best()
        self.assertIn("several objectives (accuracy, latency)", str(cm.exception))
        self.assertIn("best_trials()", str(cm.exception))
        self.assertIsInstance(cm.exception, boa_client.BoaError)
        with self.assertRaises(MultiObjectiveError):  # also without the summary read first
            self.client().study("mo-opt").best()

    def test_optimize_with_values_and_metrics(self) -> None:
        s = self.client().create_study(mo_spec("mo-metrics", 4, ACC_LAT))

        def objective(t: boa_client.Trial) -> Any:
            acc, lat = accuracy_latency(t["x"], t["n"])
            if t.number == 0:
                return [acc, lat], {"ram_kb": 100.0}  # values as a list, and metrics
            if t.number == 1:
                return (acc, lat), None
            if t.number == 2:
                return {"latency": lat, "accuracy": acc}  # by name, any order
            return {"accuracy": acc, "latency": lat}, {"ram_kb": 300.0}

        self.assertEqual(s.optimize(objective), 4)
        trials = s.trials()
        self.assertEqual([t.state for t in trials], ["COMPLETE"] * 4)
        for t in trials:
            self.assertEqual(t.values, list(accuracy_latency(t.params["x"], t.params["n"])))
        self.assertEqual([t.metrics for t in trials], [{"ram_kb": 100.0}, {}, {}, {"ram_kb": 300.0}])

    def test_optimize_values_that_do_not_fit_fail_the_trial(self) -> None:
        # As boa worker: the trial fails with the server's reason, and the
        # study goes on.
        s = self.client().create_study(mo_spec("mo-misfit", 3, ACC_LAT))

        def objective(t: boa_client.Trial) -> Any:
            acc, lat = accuracy_latency(t["x"], t["n"])
            return acc if t.number == 1 else (acc, lat)

        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            self.assertEqual(s.optimize(objective), 3)
        self.assertEqual([t.state for t in s.trials()], ["COMPLETE", "FAILED", "COMPLETE"])
        self.assertIn('study "mo-misfit" has 2 objective(s) (accuracy, latency)', s.trials()[1].reason)
        self.assertTrue(any("trial 1 failed" in str(x.message) for x in w))

    def test_tell_by_position_and_by_name(self) -> None:
        s = self.client().create_study(mo_spec("mo-tell", 4, ACC_LAT))
        a, b, c = s.ask(3)
        answer = a.tell((0.9, 3.0))
        self.assertEqual((answer["state"], answer["values"]), ("COMPLETE", [0.9, 3.0]))
        b.tell({"latency": 2.0, "accuracy": 0.8}, metrics={"ram_kb": 10.0})
        c.tell([0.95, 5.0])
        # Telling the same values again succeeds (a retried tell).
        a.tell([0.9, 3.0])
        trials = s.trials()
        self.assertEqual([t.values for t in trials], [[0.9, 3.0], [0.8, 2.0], [0.95, 5.0]])
        self.assertEqual(trials[1].metrics, {"ram_kb": 10.0})
        # None dominates another: all three are the front.
        self.assertEqual([t.number for t in s.best_trials()], [0, 1, 2])
        d = s.ask()
        assert d is not None
        d.tell([0.96, 1.0])  # dominates all three
        self.assertEqual([t.number for t in s.best_trials()], [3])
        self.assertEqual(s.summary()["front"], [3])

    def test_tell_values_that_do_not_fit(self) -> None:
        s = self.client().create_study(mo_spec("mo-misfit-tell", 2, ACC_LAT))
        t = s.ask()
        assert t is not None
        with self.assertRaises(BadRequestError) as cm:
            t.tell(0.9)  # one value for two objectives
        self.assertEqual(cm.exception.status, 400)
        self.assertEqual(
            cm.exception.message,
            'value: study "mo-misfit-tell" has 2 objective(s) (accuracy, latency): '
            'send "values", a list in that order or an object from the names',
        )
        self.assertIn("400 Bad Request: value: study", str(cm.exception))
        cases: List[Tuple[Any, str]] = [
            ([0.9], 'values: 1 given, but study "mo-misfit-tell" has 2 objective(s) (accuracy, latency)'),
            ([0.9, 3.0, 1.0], "values: 3 given"),
            ({"accuracy": 0.9}, "values: objective latency is missing"),
            ({"accuracy": 0.9, "latency": 3.0, "size": 1.0}, "values: accuracy, latency, size given"),
            ([0.9, math.nan], "not a finite number"),
            ([], "values: empty"),
        ]
        for bad, want in cases:
            with self.subTest(bad=bad):
                with self.assertRaises(BadRequestError) as cm:
                    t.tell(bad)
                self.assertIn(want, cm.exception.message)
        # Still RUNNING after every refusal: it takes the right values.
        self.assertFalse(t.finished)
        t.tell([0.9, 3.0])
        self.assertEqual(s.trials()[0].values, [0.9, 3.0])

    def test_best_trials_of_one_objective_and_before_any_trial(self) -> None:
        c = self.client()
        s = c.create_study(mo_spec("mo-single", 3, None, direction="minimize"))
        self.assertEqual(s.best_trials(), [])  # Optuna's answer before any COMPLETE trial
        with self.assertRaises(NotFoundError):
            s.best()
        for v in (3.0, 1.0, 2.0):
            t = s.ask()
            assert t is not None
            t.tell(v)
        best = s.best_trials()
        self.assertEqual(best, [s.best()])  # the best trial alone
        self.assertEqual((best[0].value, best[0].values), (1.0, [1.0]))
        self.assertEqual([t.values for t in s.trials()], [[3.0], [1.0], [2.0]])
        # A study of several objectives without a COMPLETE trial: an empty
        # front; best() still points to best_trials().
        m = c.create_study(mo_spec("mo-empty", 3, ACC_LAT))
        self.assertEqual(m.best_trials(), [])
        with self.assertRaises(MultiObjectiveError):
            m.best()
        with self.assertRaises(NotFoundError) as cm:
            c.study("mo-nope").best_trials()
        self.assertEqual(cm.exception.message, 'study "mo-nope" not found')

    def test_pruned_and_failed_trials_have_no_values(self) -> None:
        s = self.client().create_study(mo_spec("mo-states", 3, ACC_LAT))
        a, b = s.ask(2)
        a.report(0, 0.5)
        a.prune()  # its last intermediate value, in "value"
        b.fail("out of memory")
        trials = s.trials()
        self.assertEqual([(t.state, t.value, t.values) for t in trials], [("PRUNED", 0.5, None), ("FAILED", None, None)])


if __name__ == "__main__":
    unittest.main()
