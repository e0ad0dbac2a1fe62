"""examples/python/tune_sklearn.py, briefly (4 trials), against a real boa
serve; skipped where scikit-learn is absent."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import unittest

from boaserver import PYTHON_DIR, REPO, BoaServer

import boa_client

EXAMPLE = os.path.join(REPO, "examples", "python", "tune_sklearn.py")


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
