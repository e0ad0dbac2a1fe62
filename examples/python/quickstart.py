#!/usr/bin/env python3
"""boa_client in one page, with no dependency: a study, optimize, then a
trial by hand with a learning curve and the study's pruner.

    boa serve --storage sqlite:boa.db &
    python3 examples/python/quickstart.py [--url http://127.0.0.1:8080]
"""

from __future__ import annotations

import argparse
import math
import os
import sys

try:
    import boa_client
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import boa_client


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default=os.environ.get("BOA_URL", "http://127.0.0.1:8080"))
    ap.add_argument("--study", default="quickstart-py")
    args = ap.parse_args()

    client = boa_client.Client(args.url)  # the token, if the server has one: $BOA_TOKEN
    study = client.create_study({
        "name": args.study,
        "trials": 25,
        "seed": 1,
        "pruner": {"type": "median", "n_startup_trials": 5},
        "space": {
            "x": {"type": "float", "low": -5, "high": 5},
            "y": {"type": "float", "low": -5, "high": 5},
        },
    }, exist_ok=True)

    # The one-line case: 20 trials of the Branin-like bowl below.
    study.optimize(lambda t: (t["x"] - 1) ** 2 + (t["y"] + 2) ** 2 + math.sin(3 * t["x"]), n_trials=20)

    # By hand: a "training" whose loss decays towards the objective, reported
    # step by step; the median pruner stops curves that fall behind.
    while True:
        try:
            trial_cm = study.trial()
        except boa_client.NoTrialError:
            break
        with trial_cm as t:
            final = (t["x"] - 1) ** 2 + (t["y"] + 2) ** 2 + math.sin(3 * t["x"])
            for step in range(10):
                loss = final + 10.0 / (step + 1)
                if t.report(step, loss):
                    print(f"trial {t.number}: pruned at step {step} (loss {loss:.3f})")
                    raise boa_client.TrialPruned()
            t.tell(loss)
            print(f"trial {t.number}: {loss:.3f}")

    best = study.best()
    states = study.summary()["states"]
    print(f"best value {best.value:.4f} at x={best.params['x']:.3f} y={best.params['y']:.3f} (trial {best.number}); "
          f"trials by state {states}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
