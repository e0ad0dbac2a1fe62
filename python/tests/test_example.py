"""examples/python: quickstart.py, and tune_sklearn.py briefly (4 trials),
against a real boa serve; the latter skipped where scikit-learn is absent."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import unittest

from boaserver import PYTHON_DIR, REPO, BoaServer

import boa_client

EXAMPLE = os.path.join(REPO, "examples", "python", "tune_sklearn.py")
QUICKSTART = os.path.join(REPO, "examples", "python", "quickstart.py")


class QuickstartTest(unittest.TestCase):
    def test_quickstart(self) -> None:
        with BoaServer() as srv:
            env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
            env.pop("BOA_TOKEN", None)
            res = subprocess.run([sys.executable, QUICKSTART, "--url", srv.url],
                                 capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("best value", res.stdout)
            trials = boa_client.Client(srv.url, token="").open_study("quickstart-py").trials()
            self.assertEqual(len(trials), 25)
            self.assertTrue(all(t.state in ("COMPLETE", "PRUNED") for t in trials), [t.state for t in trials])
            self.assertTrue(all(t.reports for t in trials[20:]))


@unittest.skipIf(importlib.util.find_spec("sklearn") is None,
                 f"scikit-learn is absent from {sys.executable}: apt-get install python3-sklearn (for /usr/bin/python3)")
class ExampleTest(unittest.TestCase):
    def test_tune_sklearn_briefly(self) -> None:
        with BoaServer() as srv:
            env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
            env.pop("BOA_TOKEN", None)
            res = subprocess.run(
                [sys.executable, EXAMPLE, "--url", srv.url, "--trials", "4", "--jobs", "2", "--study", "example"],
                capture_output=True, text=True, env=env, timeout=600,
            )
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("best 3-fold CV accuracy", res.stdout)
            s = boa_client.Client(srv.url, token="").open_study("example")
            trials = s.trials()
            self.assertEqual([t.state for t in trials], ["COMPLETE"] * 4)
            best = s.best()
            assert best.value is not None
            self.assertGreater(best.value, 0.1)  # an accuracy over 10 classes
            self.assertLessEqual(best.value, 1.0)
            self.assertIn("cv_std", best.metrics)


if __name__ == "__main__":
    unittest.main()
