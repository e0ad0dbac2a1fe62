"""boa_client: the Python client of boa's HTTP API (``boa serve``).

Standard library only, Python >= 3.9. The quick path::

    import boa_client

    client = boa_client.Client("http://127.0.0.1:8080")          # token: BOA_TOKEN by default
    study = client.create_study({"name": "demo", "trials": 30,
                                 "space": {"x": {"type": "float", "low": -5, "high": 5}}},
                                exist_ok=True)
    study.optimize(lambda t: (t["x"] - 1) ** 2)
    print(study.best().params)

Ask and tell by hand, with background heartbeats::

    with study.trial() as t:          # an exception fails the trial and is re-raised
        for epoch in range(10):
            loss = train_one_epoch(t.params)
            if t.report(epoch, loss):  # the study's pruner says stop
                raise boa_client.TrialPruned()
        t.tell(loss, metrics={"ram_kb": 212})

A study of several objectives (``"directions": {"accuracy": "maximize",
"latency": "minimize"}`` in its file) is told one value per objective, and
answers its Pareto front::

    study.optimize(lambda t: (accuracy(t.params), latency(t.params)))
    for t in study.best_trials():
        print(t.values, t.params)

Requests are retried as the Go client retries them (transient failures,
backoff with jitter), and an ask carries a request_id so a repeat after a
lost answer gets the same trials. See docs/python.md.
"""

from .client import DEFAULT_HEARTBEAT, DEFAULT_RETRY, DEFAULT_TIMEOUT, Client
from .errors import (
    AuthError,
    BadRequestError,
    BoaConnectionError,
    BoaError,
    ConflictError,
    MultiObjectiveError,
    NotFoundError,
    NoTrialError,
    ServerError,
    TrialPruned,
)
from .study import Batch, Study
from .trial import FrozenTrial, Report, Trial

__version__ = "0.1.0"

__all__ = [
    "Client",
    "Study",
    "Batch",
    "Trial",
    "FrozenTrial",
    "Report",
    "BoaError",
    "BadRequestError",
    "AuthError",
    "NotFoundError",
    "ConflictError",
    "ServerError",
    "BoaConnectionError",
    "NoTrialError",
    "MultiObjectiveError",
    "TrialPruned",
    "DEFAULT_TIMEOUT",
    "DEFAULT_RETRY",
    "DEFAULT_HEARTBEAT",
]
