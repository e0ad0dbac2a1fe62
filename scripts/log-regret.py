#!/usr/bin/env python3
"""Log regrets from the JSON of `boa bench --json`, as the PLAyBOOK tables
of docs/playbook.md report them: the natural log of the regret, with
Ackley's regret divided by 20 and Eggholder's by 100 (spec
async-batch-playbook §7).

    boa bench ... --json > results.json
    python3 scripts/log-regret.py results.json            # mean (standard error) of the final log regret
    python3 scripts/log-regret.py --at 50,75,100 results.json   # median log regret after 50, 75 and 100 evaluations

Several files are read in turn. Runs without a regret (failed, or a
problem with no known optimum) are left out and counted in the cell.
"""
import json
import math
import statistics
import sys

SCALE = {"ackley": 20, "eggholder": 100}


def log_regret(problem, regret):
    if regret is None or not regret > 0:
        return None
    return math.log(regret / SCALE.get(problem.split(":")[0], 1))


def cell(problem, runs, at):
    if at:
        # best[n-1] is the best value after n evaluations; the optimum is
        # final_best - regret.
        medians = []
        for n in at:
            logs = [log_regret(problem, r["best"][n - 1] - (r["final_best"] - r["regret"]))
                    for r in runs if r["regret"] is not None and len(r["best"]) >= n]
            logs = [v for v in logs if v is not None]
            medians.append("%.2f" % statistics.median(logs) if logs else "-")
        return ", ".join(medians)
    logs = [log_regret(problem, r["regret"]) for r in runs]
    kept = [v for v in logs if v is not None]
    text = ""
    if len(kept) >= 2:
        text = "%.2f (%.2f)" % (statistics.mean(kept), statistics.stdev(kept) / math.sqrt(len(kept)))
    if len(kept) < len(logs):
        text += " [%d runs without a regret]" % (len(logs) - len(kept))
    return text


def main(args):
    at = None
    if args and args[0] == "--at":
        at = [int(n) for n in args[1].split(",")]
        args = args[2:]
    if not args:
        sys.exit("usage: log-regret.py [--at N1,N2,...] RESULTS.json [MORE.json ...]")
    runs = {}
    problems, samplers = [], []
    for path in args:
        with open(path) as f:
            for r in json.load(f)["results"]:
                p, s = r["problem"], r["sampler"]
                if p not in problems:
                    problems.append(p)
                if s not in samplers:
                    samplers.append(s)
                runs.setdefault((p, s), []).append(r)
    print("| problem | " + " | ".join("`%s`" % s for s in samplers) + " |")
    print("|---|" + "---|" * len(samplers))
    for p in problems:
        print("| %s | %s |" % (p, " | ".join(cell(p, runs.get((p, s), []), at) for s in samplers)))


if __name__ == "__main__":
    main(sys.argv[1:])
