#!/usr/bin/env python3
"""Mean (standard error) of the natural log of the final regret, per problem
and sampler, from the JSON of `boa bench --json` (one file or several, read
in turn), as the PLAyBOOK tables of docs/playbook.md report it: Ackley's
regret divided by 20 and Eggholder's by 100 (spec async-batch-playbook §7).

    boa bench ... --json > results.json
    python3 scripts/log-regret.py results.json

Runs without a regret (failed, or a problem with no known optimum) are
left out and counted in the cell.
"""
import json
import math
import statistics
import sys

SCALE = {"ackley": 20, "eggholder": 100}


def main(paths):
    runs = {}
    problems, samplers = [], []
    for path in paths:
        with open(path) as f:
            for r in json.load(f)["results"]:
                p, s = r["problem"], r["sampler"]
                if p not in problems:
                    problems.append(p)
                if s not in samplers:
                    samplers.append(s)
                runs.setdefault((p, s), []).append(r["regret"])
    print("| problem | " + " | ".join("`%s`" % s for s in samplers) + " |")
    print("|---|" + "---|" * len(samplers))
    for p in problems:
        scale = SCALE.get(p.split(":")[0], 1)
        cells = []
        for s in samplers:
            regrets = runs.get((p, s), [])
            logs = [math.log(x / scale) for x in regrets if x is not None and x > 0]
            cell = ""
            if len(logs) >= 2:
                se = statistics.stdev(logs) / math.sqrt(len(logs))
                cell = "%.2f (%.2f)" % (statistics.mean(logs), se)
            if len(logs) < len(regrets):
                cell += " [%d runs without a regret]" % (len(regrets) - len(logs))
            cells.append(cell)
        print("| %s | %s |" % (p, " | ".join(cells)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: log-regret.py RESULTS.json [MORE.json ...]")
    main(sys.argv[1:])
