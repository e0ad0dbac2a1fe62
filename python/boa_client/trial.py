"""Trials: one handed out by an ask (:class:`Trial`, which you run and
tell), and one as the server lists it (:class:`FrozenTrial`)."""

from __future__ import annotations

import dataclasses
import threading
import traceback
import warnings
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Type, Union

from ._http import encode_number
from .errors import BadRequestError, BoaError, ConflictError, TrialPruned

if TYPE_CHECKING:
    from .study import Study

__all__ = ["Trial", "FrozenTrial", "Report"]

#: What :meth:`Trial.tell` records: the value of a study of one objective,
#: or, in a study of several, one value per objective in the study's order
#: (``[0.93, 3.2]``) or a mapping from the objectives' names
#: (``{"accuracy": 0.93, "latency": 3.2}``).
Values = Union[float, Sequence[float], Mapping[str, float]]

# A failure reason is kept up to 4 KiB by the server; a traceback's last
# lines say the most.
_MAX_REASON = 4000


@dataclasses.dataclass(frozen=True)
class Report:
    """One intermediate value of a trial (a point of its learning curve)."""

    step: int
    value: float


@dataclasses.dataclass(frozen=True)
class FrozenTrial:
    """A trial as ``GET /api/v1/studies/{name}/trials`` and ``.../best`` answer it
    (docs/http-api.md). Times are RFC 3339 strings in UTC, or None.

    ``values`` are a COMPLETE trial's values, one per objective in the
    study's order (:attr:`Study.objective_names`): those of a study of
    several objectives, ``[value]`` in a study of one, as Optuna's
    ``FrozenTrial.values``; None for a trial that is not COMPLETE. In a study
    of several objectives ``value`` is the first objective's."""

    id: int
    number: int
    state: str  # WAITING, RUNNING, COMPLETE, PRUNED or FAILED
    params: Dict[str, Any]
    value: Optional[float]
    metrics: Dict[str, float]
    reports: List[Report]
    reason: str  # why it FAILED, or why a COMPLETE trial is infeasible
    worker: str
    started: Optional[str]
    finished: Optional[str]
    retry_of: Optional[int]  # the number of the crashed trial this one re-runs
    batch: Optional[int]
    origin: str  # design, model, user, or "" (not recorded)
    feasible: Optional[bool] = None  # COMPLETE trials of a study with constraints
    values: Optional[List[float]] = None  # a COMPLETE trial's value per objective

    @classmethod
    def from_json(cls, d: Mapping[str, Any],
                  params: Callable[[Mapping[str, Any]], Dict[str, Any]] = dict) -> "FrozenTrial":
        state = str(d.get("state") or "RUNNING")
        values: Optional[List[float]] = None
        if d.get("values") is not None:
            values = [float(v) for v in d["values"]]
        elif state == "COMPLETE" and d.get("value") is not None:
            values = [float(d["value"])]  # a study of one objective sends the value alone
        return cls(
            id=int(d["id"]),
            number=int(d["number"]),
            state=state,
            params=params(d.get("params") or {}),
            value=d.get("value"),
            metrics=dict(d.get("metrics") or {}),
            reports=[Report(int(r["step"]), float(r["value"])) for r in d.get("reports") or []],
            reason=str(d.get("reason") or ""),
            worker=str(d.get("worker") or ""),
            started=d.get("started"),
            finished=d.get("finished"),
            retry_of=d.get("retry_of"),
            batch=d.get("batch"),
            origin=str(d.get("origin") or ""),
            feasible=d.get("feasible"),
            values=values,
        )


class Trial:
    """A RUNNING trial handed out to this process by an ask.

    Run it with ``params`` and finish it with exactly one of :meth:`tell`,
    :meth:`prune` or :meth:`fail`. While it runs the server expects a
    heartbeat more often than the study's lease (``lease_seconds``, 30 s by
    default), or it takes the trial for dead, fails it as stale and hands
    the configuration to another worker. Used as a context manager
    (``with study.trial() as t:``) the trial beats in a background thread,
    and an exception in the block fails it (and is re-raised).

    Tell, report and heartbeat are retried on transient failures, as the Go
    client retries them: the server accepts a repeated tell of the same
    result, so a tell whose answer was lost is never recorded twice.
    """

    def __init__(self, study: "Study", data: Mapping[str, Any], lease_seconds: float) -> None:
        self.study = study
        self.id: int = int(data["id"])
        self.number: int = int(data["number"])
        self.params: Dict[str, Any] = study._params(data.get("params") or {})
        #: The number of the crashed trial this one re-runs, or None.
        self.retry_of: Optional[int] = data.get("retry_of")
        #: Shared by the trials one ask proposed together.
        self.batch: Optional[int] = data.get("batch")
        #: The server's heartbeat lease in seconds (0 when it gave none).
        self.lease_seconds = lease_seconds
        #: The state once finished here: COMPLETE, PRUNED or FAILED; None while running.
        self.state: Optional[str] = None
        #: True once a heartbeat or tell was refused with 409: the server
        #: took the trial for dead and re-queued it (or it was finished
        #: otherwise), so its result will be refused.
        self.lost = False
        self._last_report: Optional[Tuple[int, float]] = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._beat: Optional[threading.Thread] = None

    def __repr__(self) -> str:
        return f"Trial(study={self.study.name!r}, id={self.id}, number={self.number}, params={self.params!r})"

    def __getitem__(self, name: str) -> Any:
        """``t["lr"]`` is ``t.params["lr"]``. A parameter that is inactive
        in this configuration (a ``when`` condition) is absent."""
        return self.params[name]

    @property
    def finished(self) -> bool:
        return self.state is not None

    def _path(self, what: str) -> str:
        return f"/api/v1/trials/{self.id}/{what}"

    def _finish(self, body: Dict[str, Any], state: str) -> Dict[str, Any]:
        try:
            answer = self.study.client._transport.request("POST", self._path("tell"), body)
        except ConflictError:
            # Finished otherwise meanwhile: taken for dead and re-queued
            # (the usual case), or told another result by someone else.
            self.lost = True
            self._stop.set()
            raise
        with self._lock:
            self.state = state
        self._stop.set()
        return answer if isinstance(answer, dict) else {}

    def tell(self, value: Values, metrics: Optional[Mapping[str, float]] = None) -> Dict[str, Any]:
        """Record the trial COMPLETE with ``value`` (the objective, in the
        study's direction) and optional extra ``metrics``, which the study's
        constraints judge (a metric may be NaN or ±Inf: it crosses the API as
        the string "NaN", "+Inf" or "-Inf", and a constraint on it does not
        hold).

        In a study of several objectives ``value`` is one value per
        objective: a sequence in the study's order
        (:attr:`Study.objective_names`), ``t.tell([0.93, 3.2])``, or a
        mapping from the objectives' names, ``t.tell({"accuracy": 0.93,
        "latency": 3.2})``. The server checks them against the study's
        objectives: one value alone, a sequence of the wrong length, a name
        missing or unknown is a :class:`BadRequestError` whose message says
        what the study wants.

        A NaN or infinite value is refused by the server with a
        :class:`BadRequestError` saying so; the trial then stays RUNNING, to
        be failed with :meth:`fail` (the context manager and ``optimize`` do
        that). Returns the server's answer (``state``, ``value``, ``values``
        in a study of several objectives, and ``feasible`` in a study with
        constraints).
        """
        body = _values(value)
        if metrics:
            body["metrics"] = _metrics(metrics)
        return self._finish(body, "COMPLETE")

    def prune(self, value: Optional[float] = None, metrics: Optional[Mapping[str, float]] = None) -> Dict[str, Any]:
        """Record the trial PRUNED (stopped early) with ``value``, by default
        the last value given to :meth:`report`."""
        if value is None:
            if self._last_report is None:
                raise ValueError(f"trial {self.number}: prune() without a value needs an earlier report()")
            value = self._last_report[1]
        body: Dict[str, Any] = {"state": "PRUNED", "value": encode_number(value)}
        if metrics:
            body["metrics"] = _metrics(metrics)
        return self._finish(body, "PRUNED")

    def fail(self, reason: str, *, requeue: bool = False, metrics: Optional[Mapping[str, float]] = None) -> Dict[str, Any]:
        """Record the trial FAILED with ``reason`` (kept up to 4 KiB).
        ``requeue=True`` asks the server to run the configuration again
        once, as after a crash: for a trial that was interrupted rather than
        bad."""
        body: Dict[str, Any] = {"state": "FAILED", "reason": reason}
        if requeue:
            body["requeue"] = True
        if metrics:
            body["metrics"] = _metrics(metrics)
        return self._finish(body, "FAILED")

    def report(self, step: int, value: float) -> bool:
        """Record an intermediate value (the objective after epoch or
        iteration ``step`` ≥ 0; a second report for a step replaces the
        first) and return the study's pruner's advice: True means stop
        training and record the trial PRUNED (:meth:`prune`, or raise
        :class:`TrialPruned` in a ``with`` block). Always False in a study
        without a pruner."""
        answer = self.study.client._transport.request(
            "POST", self._path("report"), {"step": step, "value": encode_number(value)}
        )
        self._last_report = (step, float(value))
        # A server from before pruners answered 204, no body: no advice.
        return bool(isinstance(answer, dict) and answer.get("prune"))

    def heartbeat(self) -> None:
        """Tell the server the trial still runs. A :class:`ConflictError`
        means it no longer takes the trial as RUNNING (finished, or failed
        as stale and re-queued): stop it, its result will be refused."""
        try:
            self.study.client._transport.request("POST", self._path("heartbeat"))
        except ConflictError:
            if not self.finished:
                self.lost = True
            raise

    # -- background heartbeats -------------------------------------------------

    def _interval(self) -> float:
        every = self.study.client.heartbeat
        if self.lease_seconds > 0:
            every = min(every, self.lease_seconds / 3)
        return max(every, 0.05)

    def start_heartbeats(self) -> None:
        """Beat in a daemon thread, at most a third of the lease apart, until
        the trial is finished or :meth:`stop_heartbeats`. The context manager
        does this for you."""
        if self._beat is not None or self.finished:
            return
        self._stop.clear()
        self._beat = threading.Thread(target=self._beat_loop, name=f"boa-heartbeat-{self.id}", daemon=True)
        self._beat.start()

    def stop_heartbeats(self) -> None:
        self._stop.set()
        t, self._beat = self._beat, None
        if t is not None and t is not threading.current_thread():
            t.join()

    def _beat_loop(self) -> None:
        every = self._interval()
        while not self._stop.wait(every):
            try:
                self.heartbeat()
            except ConflictError:
                if not self.finished:
                    warnings.warn(
                        f"boa: trial {self.number} of study {self.study.name!r} was taken for dead by the server "
                        "(no heartbeat within its lease) and re-queued; its result will be refused",
                        RuntimeWarning,
                        stacklevel=1,
                    )
                return
            except BoaError:
                # Retried already for the client's retry budget; keep beating:
                # the server may come back before the lease lapses.
                continue

    # -- context manager -------------------------------------------------------

    def __enter__(self) -> "Trial":
        self.start_heartbeats()
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> bool:
        # Heartbeats go on until the result is recorded: a tell retried
        # while the server restarts must not find the trial reaped.
        try:
            if self.finished:
                return False
            if self.lost:
                # The server holds another result for it; nothing to record.
                return isinstance(exc, TrialPruned)
            if exc is None:
                warnings.warn(
                    f"boa: trial {self.number}: the with-block ended without tell(); the trial is failed",
                    RuntimeWarning,
                    stacklevel=2,
                )
                self.fail("the with-block ended without a result (call t.tell(value) inside it)")
                return False
            if isinstance(exc, TrialPruned):
                if self._last_report is not None:
                    self.prune()
                else:
                    self.fail(f"pruned before any report: {exc}" if str(exc) else "pruned before any report")
                return True  # TrialPruned is control flow, handled here
            if isinstance(exc, KeyboardInterrupt):
                # As boa worker on SIGINT: someone else runs it again.
                self.fail("interrupted", requeue=True)
                return False
            self.fail(failure_reason(exc))
            return False
        except BoaError as e:
            if exc is None:
                raise
            # Do not hide the user's exception behind ours.
            warnings.warn(f"boa: could not record trial {self.number} as failed: {e}", RuntimeWarning, stacklevel=2)
            return False
        finally:
            self.stop_heartbeats()


def failure_reason(exc: BaseException) -> str:
    """A failure's reason: the exception and the end of its traceback."""
    if isinstance(exc, BadRequestError):
        return exc.message  # the server's own reason (a NaN value, a log transform's 0)
    head = f"{type(exc).__name__}: {exc}"
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if len(head) + len(tb) > _MAX_REASON:
        tb = "..." + tb[-(_MAX_REASON - len(head) - 4):]
    return head + "\n" + tb


def _values(value: Any) -> Dict[str, Any]:
    """A tell's body for ``value``: ``{"value": v}`` for one number,
    ``{"values": [...]}`` for a sequence (any iterable but a string, e.g. a
    tuple or a numpy array), ``{"values": {name: v}}`` for a mapping. What
    is neither goes as it is, for the server to say what is wrong with it."""
    if isinstance(value, Mapping):
        return {"values": {str(k): encode_number(v) for k, v in value.items()}}
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, bytearray)):
        try:
            items = list(value)
        except TypeError:  # a numpy array of no dimension: one number
            return {"value": encode_number(value)}
        return {"values": [encode_number(v) for v in items]}
    return {"value": encode_number(value)}


def _metrics(metrics: Mapping[str, float]) -> Dict[str, Any]:
    return {str(k): encode_number(v) for k, v in metrics.items()}
