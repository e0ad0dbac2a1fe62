#!/usr/bin/env python3
"""Tune an SVM on scikit-learn's digits through boa serve, from Python.

    boa serve --storage sqlite:sklearn.db &          # http://127.0.0.1:8080
    python3 examples/python/tune_sklearn.py          # 40 trials, 2 threads

The study (maximise the 3-fold cross-validated accuracy) lives in the
server's database: run the script again, or on several machines at once
with --url, and it joins the same study until its budget is used up.
Needs python3-sklearn (Debian) or scikit-learn, and boa_client
(pip install ./python, or PYTHONPATH=python).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Dict, List, Optional, Tuple

try:
    import boa_client
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import boa_client

from sklearn.datasets import load_digits
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import SVC


def study_spec(name: str, trials: int, seed: int) -> Dict[str, object]:
    """The study file (docs/study-file.md) as a dict: a conditional space,
    the polynomial degree only for the poly kernel."""
    return {
        "name": name,
        "direction": "maximize",
        "sampler": "auto",
        "seed": seed,
        "trials": trials,
        "space": {
            "C": {"type": "float", "low": 1e-2, "high": 1e3, "log": True},
            "gamma": {"type": "float", "low": 1e-5, "high": 1e-1, "log": True},
            "kernel": {"type": "categorical", "choices": ["rbf", "poly", "sigmoid"]},
            "degree": {"type": "int", "low": 2, "high": 5, "when": {"kernel": ["poly"]}},
        },
    }


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=os.environ.get("BOA_URL", "http://127.0.0.1:8080"), help="boa serve's URL")
    ap.add_argument("--study", default="svm-digits-py", help="the study's name (joined if it exists)")
    ap.add_argument("--trials", type=int, default=40, help="the study's budget")
    ap.add_argument("--jobs", type=int, default=2, help="trials run at once by this process (threads)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    X, y = load_digits(return_X_y=True)
    X = X / 16.0  # pixel intensities 0..16 to [0, 1]
    folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)

    def objective(t: boa_client.Trial) -> Tuple[float, Dict[str, float]]:
        p = t.params
        model = SVC(C=p["C"], gamma=p["gamma"], kernel=p["kernel"], degree=p.get("degree", 3))
        start = time.perf_counter()
        scores = cross_val_score(model, X, y, cv=folds)
        took = time.perf_counter() - start
        print(f"trial {t.number:3d}  {p['kernel']:7s} C={p['C']:<10.4g} gamma={p['gamma']:<10.4g}"
              f"{' degree=%d' % p['degree'] if 'degree' in p else ''}  accuracy {scores.mean():.4f}  ({took:.1f}s)",
              flush=True)
        return float(scores.mean()), {"cv_std": float(scores.std()), "fit_seconds": took}

    client = boa_client.Client(args.url)
    study = client.create_study(study_spec(args.study, args.trials, args.seed), exist_ok=True)
    start = time.perf_counter()
    ran = study.optimize(objective, n_jobs=args.jobs)
    best = study.best()
    print(f"\n{ran} trials run here in {time.perf_counter() - start:.0f}s; study {study.name!r}: "
          f"best 3-fold CV accuracy {best.value:.4f} (trial {best.number}, cv_std {best.metrics.get('cv_std', 0):.4f})")
    print("best params:", best.params)
    return 0


if __name__ == "__main__":
    sys.exit(main())
