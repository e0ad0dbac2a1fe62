"""Ask/tell adapter between boa's benchmark harness (Go, package bench/peers)
and Optuna, over JSON lines on stdin and stdout.

Protocol (one JSON object per line; stdout carries nothing else):
  Go -> {"sampler": "tpe"|"tpe-cl"|"tpe-c"|"cmaes"|"random"|"nsga2"|"motpe", "seed": N,
         "space": [PARAM, ...], "constraints": [{"name": METRIC, "min": LOW|null, "max": HIGH|null}, ...],
         "directions": ["minimize"|"maximize", ...],
         "pruner": {"type": "hyperband", "min_resource": R, "max_resource": R|"auto",
                    "reduction_factor": ETA}}  (directions optional: one, minimised; pruner optional: none)
  <- {"ok": true, "optuna": VERSION}
  Go -> {"op": "ask"}               <- {"params": {NAME: VALUE, ...}, "number": N}
  Go -> {"op": "tell", "value": V, "metrics": {NAME: VALUE}}  <- {"ok": true}
  Go -> {"op": "ask", "keep": true} <- as ask
  Go -> {"op": "tell", "value": V, "number": N}  <- {"ok": true}
  Go -> {"op": "tell", "values": [V1, V2, ...], ...}  <- as tell
  Go -> {"op": "report", "number": N, "step": S, "value": V}  <- {"ok": true}
  Go -> {"op": "should_prune", "number": N}  <- {"ok": true, "prune": BOOL}
  Go -> {"op": "tell", "number": N, "pruned": true}  <- {"ok": true}
  any failure                      <- {"error": "MESSAGE"}
PARAM is {"name", "kind": float|int|ordinal|categorical|bool, "low", "high",
"log", "values", "step", "choices", "when"}, listed parents first; "when"
maps a parent's name to the values (in the parent's JSON type) for which the
parameter is active. An ask that follows an ask without a tell fails the
earlier trial, and a tell without a number tells the last ask's. Trials
asked with "keep" stay out, many at once, until a tell with their number
(asynchronous workers). A tell's metrics become the trial's user attributes
"metric:NAME"; "tpe-c" is TPESampler(constraints_func=...) over the
constraints, each a slack max(value - max, min - value) <= 0 where it holds,
as boa's constraint.Limit.Slack (a metric not reported counts as violated).
"directions" (default ["minimize"]) makes a study of that many objectives,
each in its sense, which a tell gives as "values" in the same senses;
"nsga2" is NSGAIISampler and "motpe" MOTPESampler, both with Optuna's
defaults (a population of 50; 10 random start-up trials), seeded.
The reports and pruning are for trials asked with "keep" (Optuna's
trial.report, trial.should_prune, and tell with state PRUNED, which keeps the
last reported value). End of input ends the process.
"""

import decimal
import json
import sys


def main():
    proto = sys.stdout
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol

    def send(obj):
        proto.write(json.dumps(obj, allow_nan=False) + "\n")
        proto.flush()

    try:
        import optuna
    except Exception as e:  # reported to Go, which says how to install
        send({"error": "cannot import optuna: %s" % e})
        return 1
    optuna.logging.set_verbosity(optuna.logging.WARNING)  # optuna logs to stderr
    import warnings

    warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)

    line = sys.stdin.readline()
    if not line:
        return 0
    try:
        cfg = json.loads(line)
        study = make_study(optuna, cfg["sampler"], int(cfg["seed"]), cfg.get("constraints") or [],
                           cfg.get("directions") or ["minimize"], cfg.get("pruner"))
        params = [make_param(p) for p in cfg["space"]]
    except Exception as e:
        send({"error": "bad configuration: %s: %s" % (type(e).__name__, e)})
        return 1
    send({"ok": True, "optuna": optuna.__version__})

    trial = None  # the last plain ask's, until told
    kept = {}  # the trials asked with "keep", by number, until told
    for line in sys.stdin:
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "ask" and req.get("keep"):
                t = study.ask()
                a = suggest_all(t, params)
                kept[t.number] = t
                send({"params": a, "number": t.number})
            elif op == "ask":
                if trial is not None:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                trial = study.ask()
                send({"params": suggest_all(trial, params), "number": trial.number})
            elif op == "report":
                kept_trial(kept, req).report(float(req["value"]), int(req["step"]))
                send({"ok": True})
            elif op == "should_prune":
                send({"ok": True, "prune": bool(kept_trial(kept, req).should_prune())})
            elif op == "tell" and req.get("pruned"):
                study.tell(kept_trial(kept, req), state=optuna.trial.TrialState.PRUNED)
                del kept[req["number"]]
                send({"ok": True})
            elif op == "tell" and "number" in req:
                t = kept_trial(kept, req)
                record_metrics(t, req)
                study.tell(t, told(req))
                del kept[req["number"]]
                send({"ok": True})
            elif op == "tell":
                if trial is None:
                    raise ValueError("tell without a pending ask")
                record_metrics(trial, req)
                study.tell(trial, told(req))
                trial = None
                send({"ok": True})
            else:
                raise ValueError("unknown op %r" % (op,))
        except Exception as e:
            send({"error": "%s: %s" % (type(e).__name__, e)})
    return 0


def told(req):
    """The value of a tell, or its list of values for several objectives."""
    if "values" in req:
        return [float(v) for v in req["values"]]
    return float(req["value"])


def kept_trial(kept, req):
    t = kept.get(req["number"])
    if t is None:
        raise ValueError("%s of trial %r, which is not out" % (req.get("op"), req["number"]))
    return t


def record_metrics(trial, req):
    for name, value in (req.get("metrics") or {}).items():
        trial.set_user_attr("metric:" + name, float(value))


def constraints_func(limits):
    """The slack of each limit, read from the trial's user attributes: <= 0
    where the limit holds. A metric the trial did not report violates it."""

    def slacks(trial):
        out = []
        for lim in limits:
            v = trial.user_attrs.get("metric:" + lim["name"])
            if v is None:
                out.append(1e300)
                continue
            s = float("-inf")
            if lim.get("max") is not None:
                s = v - lim["max"]
            if lim.get("min") is not None:
                s = max(s, lim["min"] - v)
            out.append(s)
        return out

    return slacks


def make_pruner(optuna, spec):
    if not spec:
        return None
    if spec.get("type") != "hyperband":
        raise ValueError("unknown pruner %r" % (spec.get("type"),))
    return optuna.pruners.HyperbandPruner(
        min_resource=int(spec.get("min_resource", 1)),
        max_resource=spec.get("max_resource", "auto"),
        reduction_factor=int(spec.get("reduction_factor", 3)),
    )


def make_study(optuna, name, seed, limits, directions, pruner=None):
    s = optuna.samplers
    if name == "tpe" or (name == "tpe-c" and not limits):
        sampler = s.TPESampler(seed=seed)
    elif name == "tpe-c":
        sampler = s.TPESampler(seed=seed, constraints_func=constraints_func(limits))
    elif name == "tpe-cl":
        sampler = s.TPESampler(seed=seed, constant_liar=True)
    elif name == "cmaes":
        # CMA-ES models the numeric parameters of the intersection search
        # space; categoricals and conditional children go to the independent
        # sampler, Optuna's default RandomSampler, seeded here.
        sampler = s.CmaEsSampler(
            seed=seed,
            independent_sampler=s.RandomSampler(seed=seed),
            warn_independent_sampling=False,
        )
    elif name == "random":
        sampler = s.RandomSampler(seed=seed)
    elif name == "nsga2":
        sampler = s.NSGAIISampler(seed=seed)
    elif name == "motpe":
        sampler = s.MOTPESampler(seed=seed)
    else:
        raise ValueError("unknown sampler %r" % (name,))
    for d in directions:
        if d not in ("minimize", "maximize"):
            raise ValueError("direction %r: want minimize or maximize" % (d,))
    # A fixed name: HyperbandPruner assigns a trial its bracket by a hash of
    # the study's name and the trial's number, and a generated name would
    # make every run's brackets, and so its results, differ.
    sense = {"direction": directions[0]} if len(directions) == 1 else {"directions": directions}
    return optuna.create_study(study_name="boa-bench", sampler=sampler, pruner=make_pruner(optuna, pruner), **sense)


def make_param(p):
    """Returns (name, when, suggest, convert) for one boa parameter."""
    name, kind, when = p["name"], p["kind"], p.get("when") or {}
    if kind == "float":
        lo, hi, log = float(p["low"]), float(p["high"]), bool(p.get("log"))
        return name, when, lambda t: t.suggest_float(name, lo, hi, log=log), lambda v: min(max(v, lo), hi)
    if kind == "int":
        lo, hi, log = int(p["low"]), int(p["high"]), bool(p.get("log"))
        return name, when, lambda t: t.suggest_int(name, lo, hi, log=log), int
    if kind == "ordinal":
        return ordinal(name, when, [float(v) for v in p["values"]], p.get("step") or 0)
    if kind == "categorical":
        choices = list(p["choices"])
        return name, when, lambda t: t.suggest_categorical(name, choices), str
    if kind == "bool":
        return name, when, lambda t: t.suggest_categorical(name, [False, True]), bool
    raise ValueError("parameter %s: unknown kind %r" % (name, kind))


def ordinal(name, when, values, step):
    """Evenly spaced values are a stepped int or float, which keeps their order
    and scale; other ordinals (1, 2, 4, 8; 1e-4, 1e-3, 1e-2) are the integer
    index of the value, which keeps their order, and is their log scale when
    they are geometric. The answer is snapped to the nearest declared value,
    since Optuna computes stepped values as low + k*step in floating point."""

    def snap(v):
        return min(values, key=lambda x: abs(x - v))

    lo, hi = values[0], values[-1]
    # suggest_int only within ±2**53: Optuna's TPE fails on integers beyond
    # int64 once it models them (NumPy object arrays have no rint), while a
    # float step distribution serves such whole values as well.
    whole = all(v.is_integer() and abs(v) <= 2**53 for v in values)
    if step and whole and float(step).is_integer():
        ilo, ihi, istep = int(lo), int(hi), int(step)
        return name, when, lambda t: t.suggest_int(name, ilo, ihi, step=istep), snap
    if step and fits_step(lo, hi, step):
        return name, when, lambda t: t.suggest_float(name, lo, hi, step=step), snap
    top = len(values) - 1
    return name, when, lambda t: values[t.suggest_int(name, 0, top)], snap


def fits_step(lo, hi, step):
    """Mirrors Optuna's decimal check, which otherwise lowers high (dropping
    the top value) when high - low is not a multiple of step."""
    d = decimal.Decimal
    return (d(str(hi)) - d(str(lo))) % d(str(step)) == 0


def suggest_all(trial, params):
    out = {}
    for name, when, suggest, convert in params:
        if all(parent in out and out[parent] in allowed for parent, allowed in when.items()):
            out[name] = convert(suggest(trial))
    return out


if __name__ == "__main__":
    sys.exit(main())
