"""boa_client against a real boa serve: studies, ask/tell, errors, the
context manager, pruning, optimize, concurrency."""

from __future__ import annotations

import json
import math
import os
import tempfile
import threading
import unittest
import warnings

from boaserver import BoaServer, simple_spec

import boa_client
from boa_client import (
    AuthError,
    BadRequestError,
    BoaError,
    ConflictError,
    NotFoundError,
    NoTrialError,
    TrialPruned,
)


class ServerTest(unittest.TestCase):
    server: BoaServer

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = BoaServer().start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def client(self, **kw: object) -> boa_client.Client:
        return boa_client.Client(self.server.url, token="", **kw)  # type: ignore[arg-type]


class StudyTest(ServerTest):
    def test_create_open_and_exist_ok(self) -> None:
        c = self.client()
        s = c.create_study(simple_spec("create", 5))
        self.assertEqual(s.name, "create")
        self.assertEqual(s.summary()["budget"], 5)
        with self.assertRaises(ConflictError) as cm:
            c.create_study(simple_spec("create", 5))
        self.assertIn('study "create" already exists', cm.exception.message)
        self.assertEqual(cm.exception.status, 409)
        self.assertEqual(c.create_study(simple_spec("create", 5), exist_ok=True).name, "create")
        self.assertEqual(c.open_study("create").name, "create")
        self.assertIn("create", [st["name"] for st in c.studies()])

    def test_delete_study(self) -> None:
        c = self.client()
        s = c.create_study(simple_spec("doomed", 5))
        s.ask(2)
        self.assertEqual(c.delete_study("doomed"), 2)
        self.assertNotIn("doomed", [st["name"] for st in c.studies()])
        with self.assertRaises(NotFoundError):
            c.delete_study("doomed")
        with self.assertRaises(NotFoundError):
            c.open_study("doomed")

    def test_study_from_json_file_and_name_override(self) -> None:
        c = self.client()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "study.json")
            with open(path, "w") as f:
                json.dump(simple_spec("from-file", 3), f)
            self.assertEqual(c.create_study(path).summary()["budget"], 3)
            self.assertEqual(c.create_study(path, name="renamed").name, "renamed")

    def test_study_from_yaml_file(self) -> None:
        # The quickstart's study file, sent as it is: boa serve reads the YAML.
        c = self.client()
        quickstart = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "quickstart.yaml")
        s = c.create_study(quickstart, name="yaml-quickstart")
        self.assertEqual(s.name, "yaml-quickstart")
        self.assertEqual(s.summary()["budget"], 30)
        self.assertEqual(c.create_study(quickstart, name="yaml-quickstart", exist_ok=True).name, "yaml-quickstart")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "study.yml")
            with open(path, "w") as f:
                f.write('name: "yaml-named"  # its own name\ntrials: 3\nspace:\n  x: {type: float, low: 0, high: 1}\n')
            self.assertEqual(c.create_study(path).name, "yaml-named")
            self.assertEqual(c.create_study(path, exist_ok=True).name, "yaml-named")
            with open(path, "w") as f:
                f.write("name: broken\nspace:\n  x: {type: float, low: 2, high: 1}\n")
            with self.assertRaises(BadRequestError) as cm:
                c.create_study(path)
            self.assertIn("line 3", cm.exception.message)

    def test_bad_study_file_carries_the_servers_message(self) -> None:
        spec = simple_spec("bad", 5)
        spec["space"] = {"x": {"type": "float", "low": 2, "high": 1}}
        with self.assertRaises(BadRequestError) as cm:
            self.client().create_study(spec)
        self.assertEqual(cm.exception.status, 400)
        self.assertIn("space.x", cm.exception.message)
        self.assertIn("low must be below high", cm.exception.message)
        with self.assertRaises(BadRequestError) as cm:
            self.client().create_study(simple_spec("bad2", 5, colour="blue"))
        self.assertIn("colour", cm.exception.message)

    def test_ask_tell_trials_best(self) -> None:
        s = self.client().create_study(simple_spec("basic", 4))
        trials = s.ask(2)
        self.assertEqual(len(trials), 2)
        t = s.ask()
        assert t is not None
        self.assertEqual(set(t.params), {"x", "n"})
        self.assertEqual(t["x"], t.params["x"])
        for i, tr in enumerate(trials + [t]):
            answer = tr.tell(float(i), metrics={"acc": 0.5, "nan_metric": math.nan, "inf_metric": math.inf})
            self.assertEqual(answer["state"], "COMPLETE")
        self.assertEqual(len(s.ask(3)), 1)  # one left in the budget of 4
        self.assertEqual(s.ask(), None)
        self.assertEqual(s.ask(2), [])
        best = s.best()
        self.assertEqual(best.value, 0.0)
        self.assertEqual(best.number, trials[0].number)
        # NaN and Inf metrics crossed the API as strings; the server keeps the finite ones.
        self.assertEqual(best.metrics, {"acc": 0.5})
        done = s.trials("COMPLETE")
        self.assertEqual(len(done), 3)
        self.assertEqual(len(s.trials()), 4)
        # Telling the same result again succeeds (a retried tell); another is a 409.
        trials[0].tell(0.0, metrics={"acc": 0.5, "nan_metric": math.nan, "inf_metric": math.inf})
        with self.assertRaises(ConflictError) as cm:
            trials[0].tell(7.0)
        self.assertIn("already finished as COMPLETE", cm.exception.message)

    def test_set_budget(self) -> None:
        # Run 2, look, run 2 more: the raised budget gives more trials.
        s = self.client().create_study(simple_spec("more", 2))
        self.assertEqual(s.optimize(lambda t: t["x"]), 2)
        self.assertEqual(s.set_budget(4)["budget"], 4)
        self.assertEqual(s.optimize(lambda t: t["x"]), 2)
        self.assertEqual(len(s.trials("COMPLETE")), 4)
        with self.assertRaises(boa_client.BadRequestError):
            s.set_budget(-1)

    def test_enqueue(self) -> None:
        s = self.client().create_study(simple_spec("enqueue", 3))
        q = s.enqueue({"x": 0.25, "n": 2})
        self.assertEqual(q.state, "WAITING")
        t = s.ask()
        assert t is not None
        self.assertEqual(t.params, {"x": 0.25, "n": 2})
        # A float parameter at a whole value comes back a float (JSON
        # writes 1.0 as 1); an int parameter stays an int.
        s.enqueue({"x": 1, "n": 3})
        t = self.client().study("enqueue").ask()
        assert t is not None
        self.assertEqual(t.params, {"x": 1.0, "n": 3})
        self.assertIsInstance(t["x"], float)
        self.assertIsInstance(t["n"], int)
        self.assertIsInstance(s.trials()[1].params["x"], float)
        with self.assertRaises(BadRequestError) as cm:
            s.enqueue({"x": 9, "n": 2})
        self.assertIn("space.x", cm.exception.message)

    def test_server_writes_whole_floats_as_floats(self) -> None:
        # The JSON itself, without the client's conversion: a float at a
        # whole value is 1.0, which json reads as a float.
        import urllib.request

        s = self.client().create_study(simple_spec("wholefloat", 2))
        s.enqueue({"x": 1, "n": 3})
        with urllib.request.urlopen(self.server.url + "/api/v1/studies/wholefloat/trials") as r:
            body = r.read().decode()
        self.assertIn('"params":{"n":3,"x":1.0}', body)
        params = json.loads(body)["trials"][0]["params"]
        self.assertIsInstance(params["x"], float)
        self.assertIsInstance(params["n"], int)

    def test_fail_and_requeue(self) -> None:
        s = self.client().create_study(simple_spec("fail", 2))
        t = s.ask()
        assert t is not None
        t.fail("CUDA out of memory", requeue=True)
        again = s.ask()
        assert again is not None
        self.assertEqual(again.retry_of, t.number)
        self.assertEqual(again.params, t.params)
        failed = s.trials("FAILED")
        self.assertEqual([f.reason for f in failed], ["CUDA out of memory"])


class ErrorTest(ServerTest):
    """Bad input from Python raises an exception carrying the server's message."""

    def test_unknown_study(self) -> None:
        c = self.client()
        for call in (lambda: c.open_study("nope"), lambda: c.study("nope").ask(), lambda: c.study("nope").best()):
            with self.assertRaises(NotFoundError) as cm:
                call()
            self.assertEqual(cm.exception.status, 404)
            self.assertEqual(cm.exception.message, 'study "nope" not found')
            self.assertIn('404 Not Found: study "nope" not found', str(cm.exception))

    def test_nan_value(self) -> None:
        s = self.client().create_study(simple_spec("nan", 3))
        t = s.ask()
        assert t is not None
        for bad in (math.nan, math.inf, -math.inf):
            with self.assertRaises(BadRequestError) as cm:
                t.tell(bad)
            self.assertIn("is not a finite number; NaN and Infinity cannot be recorded", cm.exception.message)
        with self.assertRaises(BadRequestError) as cm:
            t.report(1, math.nan)
        self.assertIn("NaN", cm.exception.message)
        # The trial is still RUNNING: it can be failed with the reason.
        t.fail("diverged: loss is NaN")
        self.assertEqual(s.trials()[0].state, "FAILED")

    def test_no_best_yet(self) -> None:
        s = self.client().create_study(simple_spec("nobest", 3))
        with self.assertRaises(NotFoundError) as cm:
            s.best()
        self.assertIn("no COMPLETE trial yet", cm.exception.message)

    def test_bad_n(self) -> None:
        s = self.client().create_study(simple_spec("badn", 3))
        with self.assertRaises(BadRequestError) as cm:
            s.ask(0)
        self.assertIn("n: want between 1 and 100", cm.exception.message)

    def test_unreachable_server(self) -> None:
        c = boa_client.Client("http://127.0.0.1:9", token="", retry=0.3)
        with self.assertRaises(boa_client.BoaConnectionError) as cm:
            c.studies()
        self.assertIsNone(cm.exception.status)
        self.assertIn("connection refused", str(cm.exception))
        with self.assertRaises(ValueError):
            boa_client.Client("127.0.0.1:8080")


class TokenTest(unittest.TestCase):
    def test_wrong_and_missing_token(self) -> None:
        token = "s3cret-s3cret-s3cret"  # boa serve refuses fewer than 16 characters
        with BoaServer(token=token) as srv:
            ok = boa_client.Client(srv.url, token=token)
            ok.create_study(simple_spec("tok", 2))
            with self.assertRaises(AuthError) as cm:
                boa_client.Client(srv.url, token="wrong").open_study("tok")
            self.assertEqual(cm.exception.status, 401)
            self.assertEqual(cm.exception.message, "invalid bearer token")
            with self.assertRaises(AuthError) as cm:
                boa_client.Client(srv.url, token="").studies()
            self.assertIn("missing bearer token", cm.exception.message)
            old = os.environ.get("BOA_TOKEN")
            os.environ["BOA_TOKEN"] = token  # the default, as boa worker reads it
            try:
                self.assertEqual(boa_client.Client(srv.url).open_study("tok").name, "tok")
            finally:
                if old is None:
                    del os.environ["BOA_TOKEN"]
                else:
                    os.environ["BOA_TOKEN"] = old


class ContextManagerTest(ServerTest):
    def test_exception_fails_the_trial_and_is_reraised(self) -> None:
        s = self.client().create_study(simple_spec("ctx-fail", 3))
        with self.assertRaises(ZeroDivisionError):
            with s.trial() as t:
                1 / 0
        rec = s.trials()[0]
        self.assertEqual(rec.id, t.id)
        self.assertEqual(rec.state, "FAILED")
        self.assertTrue(rec.reason.startswith("ZeroDivisionError: division by zero"), rec.reason)
        self.assertIn("1 / 0", rec.reason)  # the traceback's last lines

    def test_tell_inside_block(self) -> None:
        s = self.client().create_study(simple_spec("ctx-ok", 3))
        with s.trial() as t:
            t.tell(1.5)
        self.assertEqual(s.trials()[0].state, "COMPLETE")

    def test_block_without_tell_fails_with_a_warning(self) -> None:
        s = self.client().create_study(simple_spec("ctx-none", 3))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with s.trial():
                pass
        self.assertTrue(any("without tell" in str(x.message) for x in w))
        self.assertIn("without a result", s.trials()[0].reason)

    def test_no_trial_left(self) -> None:
        s = self.client().create_study(simple_spec("ctx-budget", 1))
        with s.trial() as t:
            t.tell(1)
        with self.assertRaises(NoTrialError):
            s.trial()

    def test_report_returns_should_prune(self) -> None:
        s = self.client().create_study(
            simple_spec("prune", 5, pruner={"type": "median", "n_startup_trials": 1})
        )
        with s.trial() as a:
            self.assertFalse(a.report(1, 1.0))
            a.tell(1.0)
        with s.trial() as b:
            self.assertTrue(b.report(1, 5.0))  # worse than the median at step 1
            self.assertFalse(b.report(2, 0.5))  # no trial has step 2 to compare with
            raise TrialPruned()
        rec = s.trials()[1]
        self.assertEqual((rec.state, rec.value), ("PRUNED", 0.5))  # the last reported value
        self.assertEqual([(r.step, r.value) for r in rec.reports], [(1, 5.0), (2, 0.5)])


class OptimizeTest(ServerTest):
    def test_optimize_until_the_budget_is_used(self) -> None:
        s = self.client().create_study(simple_spec("opt", 12))
        ran = s.optimize(lambda t: (t["x"] - 1) ** 2 + t["n"])
        self.assertEqual(ran, 12)
        self.assertEqual(len(s.trials("COMPLETE")), 12)
        best = s.best()
        self.assertAlmostEqual(best.value, (best.params["x"] - 1) ** 2 + best.params["n"])

    def test_nan_fails_the_trial_and_goes_on(self) -> None:
        s = self.client().create_study(simple_spec("opt-nan", 4))
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            ran = s.optimize(lambda t: math.nan if t.number == 1 else (t["x"], {"acc": 0.9}), n_trials=3)
        self.assertEqual(ran, 3)
        states = [t.state for t in s.trials()]
        self.assertEqual(states, ["COMPLETE", "FAILED", "COMPLETE"])
        self.assertIn("not a finite number", s.trials()[1].reason)
        self.assertEqual(s.trials()[0].metrics, {"acc": 0.9})

    def test_exception_stops_unless_caught(self) -> None:
        s = self.client().create_study(simple_spec("opt-exc", 6))

        def boom(t: boa_client.Trial) -> float:
            raise KeyError("missing")

        with self.assertRaises(KeyError):
            s.optimize(boom, n_trials=3)
        self.assertEqual([t.state for t in s.trials()], ["FAILED"])
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            self.assertEqual(s.optimize(boom, n_trials=2, catch=(KeyError,)), 2)
        self.assertEqual([t.state for t in s.trials()], ["FAILED"] * 3)

    def test_pruned_in_optimize(self) -> None:
        s = self.client().create_study(simple_spec("opt-prune", 3, pruner={"type": "median", "n_startup_trials": 1}))

        def fn(t: boa_client.Trial) -> float:
            for step in range(3):
                v = float(t.number * 10 + step)
                if t.report(step, v):
                    raise TrialPruned()
            return v

        s.optimize(fn)
        self.assertEqual([t.state for t in s.trials()], ["COMPLETE", "PRUNED", "PRUNED"])


class ConcurrencyTest(ServerTest):
    def test_four_threads_thirty_trials(self) -> None:
        """30 trials, 4 Python threads asking and telling concurrently: 30
        distinct COMPLETE trials (issue 35)."""
        c = self.client()
        s = c.create_study(simple_spec("threads", 30, sampler="gpbo"))
        told: list = []
        errors: list = []
        lock = threading.Lock()

        def work() -> None:
            try:
                while True:
                    t = s.ask()
                    if t is None:
                        return
                    t.tell((t["x"] - 1) ** 2)
                    with lock:
                        told.append(t.id)
            except BaseException as e:  # reported by the main thread
                errors.append(e)

        threads = [threading.Thread(target=work, name=f"w{i}") for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self.assertEqual(errors, [])
        trials = s.trials()
        self.assertEqual(len(trials), 30)
        self.assertEqual(sorted(told), sorted(t.id for t in trials))
        self.assertEqual(len(set(told)), 30)
        self.assertTrue(all(t.state == "COMPLETE" for t in trials), [t.state for t in trials])
        self.assertEqual(sorted(t.number for t in trials), list(range(30)))
        # Each thread recorded its own worker name.
        self.assertEqual(len({t.worker for t in trials}), 4)
        configs = {json.dumps(t.params, sort_keys=True) for t in trials}
        self.assertEqual(len(configs), 30)

    def test_optimize_n_jobs(self) -> None:
        s = self.client().create_study(simple_spec("n-jobs", 20))
        self.assertEqual(s.optimize(lambda t: t["x"] ** 2, n_jobs=4), 20)
        trials = s.trials()
        self.assertEqual(len(trials), 20)
        self.assertTrue(all(t.state == "COMPLETE" for t in trials))


class ExceptionsTest(unittest.TestCase):
    def test_hierarchy(self) -> None:
        for cls in (BadRequestError, AuthError, NotFoundError, ConflictError, NoTrialError):
            self.assertTrue(issubclass(cls, BoaError))
        self.assertFalse(issubclass(TrialPruned, BoaError))


if __name__ == "__main__":
    unittest.main()
