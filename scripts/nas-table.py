#!/usr/bin/env python3
"""Tables of NAS runs from the JSON of `boa bench --json`, as
docs/nasbowl.md reports them (nas-graph-bo.md §9.2): for each problem and
sampler, the median best-so-far value (an NB201 validation error, %)
after n evaluations, with one standard error of the median (bootstrap,
2000 resamples, fixed seed), and the median test regret of the final
incumbent (best test accuracy minus the incumbent's, percentage points).
Runs in batches (--batch b) are rows of their own, "sampler, b = 5".

    boa bench --table nb201:PATH ... --json > results.json
    python3 scripts/nas-table.py results.json                 # after 10, 50, 100, 150 evaluations
    python3 scripts/nas-table.py --at 50,150 a.json b.json     # several files, one table per problem
"""
import json
import random
import statistics
import sys


def median_se(values, rng):
    m = statistics.median(values)
    boot = [statistics.median(rng.choices(values, k=len(values))) for _ in range(2000)]
    return m, statistics.stdev(boot)


def main(args):
    at = [10, 50, 100, 150]
    if len(args) >= 2 and args[0] == "--at":
        at = [int(v) for v in args[1].split(",")]
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    runs = {}
    for path in args:
        with open(path) as f:
            for r in json.load(f)["results"]:
                name = r["sampler"]
                if r.get("batch", 1) > 1:
                    name += ", b = %d" % r["batch"]
                runs.setdefault(r["problem"], {}).setdefault(name, []).append(r)
    for problem, by_sampler in runs.items():
        print("\n%s (median ± s.e. over seeds)\n" % problem)
        print("| sampler | runs | " + " | ".join("after %d" % n for n in at) + " | test regret |")
        print("|---|---|" + "---|" * len(at) + "---|")
        for sampler, rs in by_sampler.items():
            rng = random.Random(1)
            cells = []
            for n in at:
                vals = [r["best"][n - 1] for r in rs if len(r["best"]) >= n]
                cells.append("%.3f ± %.3f" % median_se(vals, rng) if vals else "-")
            tr = [r["test_regret"] for r in rs if r.get("test_regret") is not None]
            cells.append("%.3f" % statistics.median(tr) if tr else "-")
            print("| %s | %d | %s |" % (sampler, len(rs), " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
