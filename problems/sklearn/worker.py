"""Objective worker of boa's real tuning tasks (Go package problems/sklearn):
one process per task, fed configurations over JSON lines on stdin and stdout.

Protocol (one JSON object per line; stdout carries nothing else):
  Go -> {"task": NAME, "dataset": "iris"|"wine"|"breast_cancer"|"digits"|"diabetes",
         "estimator": "sklearn.svm.SVC", "fixed": {ARG: VALUE}, "metric": "err"|"nll"|"mse"|"mae",
         "folds": K}
  <- {"ok": true, "sklearn": VERSION, "rows": N}
  Go -> {"params": {NAME: VALUE}}   <- {"value": LOSS, "seconds": S}
  any failure                      <- {"error": "MESSAGE"}
A parameter named logit_X is the logit of the estimator's argument X
(Bayesmark's "logit" warping, so the optimiser searches the warped axis);
hidden_layer_sizes, an integer, is the width of the one hidden layer. The
loss is the mean over K folds (StratifiedKFold for classifiers, KFold for
regressors, both shuffled with random_state=0) of 1 - accuracy, the log
loss, the mean squared or the mean absolute error. End of input ends the
process.
"""

import importlib
import json
import math
import sys
import time
import warnings


def main():
    proto = sys.stdout
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol

    def send(obj):
        proto.write(json.dumps(obj, allow_nan=False) + "\n")
        proto.flush()

    line = sys.stdin.readline()
    if not line:
        return 0
    try:
        task = Task(json.loads(line))
    except Exception as e:
        send({"error": "cannot set up the task: %s: %s" % (type(e).__name__, e)})
        return 1
    import sklearn

    send({"ok": True, "sklearn": sklearn.__version__, "rows": int(task.y.shape[0])})
    for line in sys.stdin:
        try:
            req = json.loads(line)
            t0 = time.perf_counter()
            v = task.evaluate(req["params"])
            send({"value": v, "seconds": time.perf_counter() - t0})
        except Exception as e:
            send({"error": "%s: %s" % (type(e).__name__, e)})
    return 0


class Task:
    def __init__(self, cfg):
        from sklearn import datasets, model_selection

        loaders = {
            "iris": datasets.load_iris,
            "wine": datasets.load_wine,
            "breast_cancer": datasets.load_breast_cancer,
            "digits": datasets.load_digits,
            "diabetes": datasets.load_diabetes,
        }
        self.X, self.y = loaders[cfg["dataset"]](return_X_y=True)
        mod, _, cls = cfg["estimator"].rpartition(".")
        if not mod.startswith("sklearn."):
            raise ValueError("estimator %r is not scikit-learn's" % cfg["estimator"])
        self.estimator = getattr(importlib.import_module(mod), cls)
        self.fixed = dict(cfg.get("fixed") or {})
        if "random_state" in self.estimator().get_params():
            self.fixed.setdefault("random_state", 0)  # the objective must be deterministic
        self.metric = cfg["metric"]
        k = int(cfg["folds"])
        if self.metric in ("err", "nll"):
            cv = model_selection.StratifiedKFold(n_splits=k, shuffle=True, random_state=0)
        else:
            cv = model_selection.KFold(n_splits=k, shuffle=True, random_state=0)
        self.folds = list(cv.split(self.X, self.y))  # fixed once: every configuration sees the same folds

    def arguments(self, params):
        args = dict(self.fixed)
        for name, v in params.items():
            if name.startswith("logit_"):
                name, v = name[len("logit_") :], 1.0 / (1.0 + math.exp(-v))
            elif name == "hidden_layer_sizes":
                v = (int(v),)
            args[name] = v
        return args

    def evaluate(self, params):
        from sklearn import metrics

        args = self.arguments(params)
        losses = []
        with warnings.catch_warnings():
            # Optimisers try odd settings on purpose: convergence and other
            # warnings are expected and would only fill stderr.
            warnings.simplefilter("ignore")
            for train, test in self.folds:
                model = self.estimator(**args)
                model.fit(self.X[train], self.y[train])
                Xt, yt = self.X[test], self.y[test]
                if self.metric == "err":
                    loss = 1.0 - metrics.accuracy_score(yt, model.predict(Xt))
                elif self.metric == "nll":
                    loss = metrics.log_loss(yt, model.predict_proba(Xt), labels=model.classes_)
                elif self.metric == "mse":
                    loss = metrics.mean_squared_error(yt, model.predict(Xt))
                elif self.metric == "mae":
                    loss = metrics.mean_absolute_error(yt, model.predict(Xt))
                else:
                    raise ValueError("unknown metric %r" % self.metric)
                losses.append(float(loss))
        v = sum(losses) / len(losses)
        if not math.isfinite(v):
            raise ValueError("the %s is not finite (%r)" % (self.metric, v))
        return v


if __name__ == "__main__":
    sys.exit(main())
