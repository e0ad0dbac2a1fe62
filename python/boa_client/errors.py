"""The exceptions of boa_client.

Every failure the server answers (a 4xx or 5xx with ``{"error": "..."}``)
is a :class:`BoaError` carrying the server's message and the HTTP status;
the common statuses have their own subclass, so that a caller can catch
exactly what it can act on (a 404 for an unknown study, a 401 for a wrong
token). A request that never got an answer, after the retries, is a
:class:`BoaConnectionError` (status ``None``).
"""

from __future__ import annotations

from typing import Optional, Type

__all__ = [
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
]

_REASONS = {
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Request Entity Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


class BoaError(Exception):
    """A request to boa failed.

    ``message`` is the server's own ``{"error": ...}`` text (or the start of
    a body that is not JSON, or what went wrong on the way); ``status`` the
    HTTP status, ``None`` when there was no answer; ``method`` and ``path``
    the request. ``str()`` reads like the Go client's errors::

        POST /api/v1/trials/7/tell: 400 Bad Request: value: "NaN" is not a finite number; ...
    """

    def __init__(
        self,
        message: str,
        status: Optional[int] = None,
        method: str = "",
        path: str = "",
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.method = method
        self.path = path
        #: Seconds from a Retry-After header, if the server sent one.
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f"{self.method} {self.path}: " if self.method else ""
        if self.status is None:
            return where + self.message
        reason = _REASONS.get(self.status, "")
        return f"{where}{self.status} {reason}: {self.message}".replace("  ", " ")


class BadRequestError(BoaError):
    """400: the request is wrong (a bad study file, a NaN value, a parameter outside the space)."""


class AuthError(BoaError):
    """401: the bearer token is missing or wrong (``Client(token=...)`` or ``BOA_TOKEN``)."""


class NotFoundError(BoaError):
    """404: no such study or trial (or, for ``best()``, no COMPLETE trial yet)."""


class ConflictError(BoaError):
    """409: the study name is taken, or the trial is no longer RUNNING.

    A heartbeat, report or tell of a trial that the server took for dead
    (its lease lapsed and it was re-queued) is a 409: the configuration
    runs elsewhere now and this result will not be recorded.
    """


class ServerError(BoaError):
    """5xx: the server failed (after the retries, for 502, 503 and 504)."""


class BoaConnectionError(BoaError):
    """No answer: the server could not be reached, or the connection broke, after the retries."""


class NoTrialError(BoaError):
    """The study has used up its trial budget: there is no trial left to ask for."""


class MultiObjectiveError(BoaError):
    """The study has several objectives and so no one best trial: ``best()``
    refuses it, as the Go client's ``Best`` does; ``best_trials()`` returns
    its Pareto front."""


class TrialPruned(Exception):
    """Raise inside ``with study.trial() as t:`` (or an ``optimize`` objective) to stop a trial
    that ``t.report(...)`` advised to prune: the trial is told PRUNED with its last reported value.

    Not a :class:`BoaError`: it is control flow, as Optuna's ``TrialPruned``.
    """


def for_status(status: int, message: str, method: str, path: str, retry_after: Optional[float] = None) -> BoaError:
    """The exception of the right class for an HTTP status."""
    cls: Type[BoaError] = BoaError
    if status == 400:
        cls = BadRequestError
    elif status == 401:
        cls = AuthError
    elif status == 404:
        cls = NotFoundError
    elif status == 409:
        cls = ConflictError
    elif status >= 500:
        cls = ServerError
    return cls(message, status, method, path, retry_after)
