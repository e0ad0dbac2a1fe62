"""A study on the server: ask for trials, run them, read the results."""

from __future__ import annotations

import dataclasses
import math
import os
import secrets
import socket
import threading
import time
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Tuple, Type, Union, overload

from ._http import quote
from .errors import BadRequestError, ConflictError, MultiObjectiveError, NoTrialError, NotFoundError, TrialPruned
from .trial import FrozenTrial, Trial, Values

if TYPE_CHECKING:
    from .client import Client

__all__ = ["Study", "Batch"]

# What an objective of optimize may return: the value (in a study of
# several objectives a tuple or list of values, one per objective, or a
# mapping from their names), or a pair of that and extra metrics.
ObjectiveResult = Union[Values, Tuple[Values, Optional[Mapping[str, float]]]]
Objective = Callable[[Trial], ObjectiveResult]


@dataclasses.dataclass
class Batch:
    """An ask's answer."""

    trials: List[Trial]  # RUNNING trials for this process; empty once the budget is used up
    #: When ``trials`` is empty: the study's WAITING and RUNNING trials. One
    #: whose worker died is re-queued once its lease lapses, so it is worth
    #: asking again while this is above 0.
    pending: int
    lease_seconds: float  # heartbeat more often than this


def default_worker() -> str:
    """The worker name recorded with the trials this thread asks for:
    host:pid as ``boa worker`` and ``boa run`` record, and the thread's name
    off the main thread, so the trials of each thread are told apart (in
    ``boa trials`` and the dashboard's timeline) and each thread's latest
    ask can be repeated (the server keeps one answer per worker name)."""
    name = f"{socket.gethostname()}:{os.getpid()}"
    t = threading.current_thread()
    if t is not threading.main_thread():
        name += "/" + t.name
    return name


class Study:
    """A study on a boa server, by name. Cheap to create and safe to share
    between threads: it holds nothing but the client and the name; every
    method asks the server."""

    def __init__(self, client: "Client", name: str, summary: Optional[Mapping[str, Any]] = None) -> None:
        self.client = client
        self.name = name
        self._floats: Optional[FrozenSet[str]] = None
        self._objs: Optional[List[Tuple[str, str]]] = None
        if summary is not None:
            self._floats = _float_names(summary)
            self._objs = _goals(summary)

    def _float_params(self) -> FrozenSet[str]:
        """The names of the study's float parameters, read once. boa serve
        writes a float parameter at a whole value as 1000.0, which json
        reads as a float; an older server wrote 1000, which would reach
        Python as an int, so such params are made floats again."""
        if self._floats is None:
            self._floats = _float_names(self.summary())
        return self._floats

    def _params(self, params: Mapping[str, Any]) -> Dict[str, Any]:
        floats = self._float_params()
        return {
            k: float(v) if k in floats and isinstance(v, int) and not isinstance(v, bool) else v
            for k, v in params.items()
        }

    def __repr__(self) -> str:
        return f"Study({self.name!r} on {self.client.url})"

    # -- objectives ------------------------------------------------------------

    def _objectives(self) -> List[Tuple[str, str]]:
        """(name, direction) of each objective, read once: they are fixed
        when the study is created."""
        goals = self._objs
        if goals is None:
            goals = _goals(self.summary())
        return goals

    @property
    def directions(self) -> List[str]:
        """The sense of each objective, in order: ``["maximize",
        "minimize"]`` for ``directions: {accuracy: maximize, latency:
        minimize}``, ``["minimize"]`` for a study of one objective. Read from
        the server the first time (once for the study object)."""
        return [d for _, d in self._objectives()]

    @property
    def objective_names(self) -> List[str]:
        """The objectives' names, in order: the study file's (``["accuracy",
        "latency"]``), ``["value_0", "value_1"]`` for a list of directions,
        ``["value"]`` for a study of one objective. A tell's values and a
        trial's ``values`` follow this order."""
        return [n for n, _ in self._objectives()]

    @property
    def is_multi_objective(self) -> bool:
        """True for a study of several objectives (``directions`` in its
        study file): it is told a value per objective and has a Pareto front
        (:meth:`best_trials`) rather than one best trial."""
        return len(self._objectives()) > 1

    @property
    def _path(self) -> str:
        return "/api/v1/studies/" + quote(self.name)

    # -- reading ---------------------------------------------------------------

    def summary(self) -> Dict[str, Any]:
        """The study's summary as ``GET /api/v1/studies/{name}`` answers it:
        direction, sampler, budget, space, ``states`` (trials per state),
        ``best_value``, ``best_trial``, and in a study of several objectives
        ``objectives`` (``[{"name": ..., "direction": ...}]``) and ``front``
        (the numbers of the Pareto front's trials; absent while it is empty)
        (docs/http-api.md)."""
        answer: Dict[str, Any] = self.client._transport.request("GET", self._path)
        self._floats = _float_names(answer)
        self._objs = _goals(answer)
        return answer

    def trials(self, state: Optional[str] = None) -> List[FrozenTrial]:
        """Every trial, in order; only those in ``state`` (COMPLETE, FAILED,
        ...) when given."""
        answer = self.client._transport.request("GET", self._path + "/trials")
        out = [FrozenTrial.from_json(t, self._params) for t in answer.get("trials") or []]
        if state is not None:
            out = [t for t in out if t.state == state.upper()]
        return out

    def best(self) -> FrozenTrial:
        """The best COMPLETE trial (the best feasible one in a study with
        constraints). A :class:`NotFoundError` with the server's message when
        there is none yet.

        A study of several objectives has no one best trial: there it is a
        :class:`MultiObjectiveError` pointing to :meth:`best_trials`, as the
        Go client's ``Best`` refuses it (and Optuna's ``best_trial``)."""
        if self.is_multi_objective:
            raise self._no_one_best()
        answer = self.client._transport.request("GET", self._path + "/best")
        if _is_front(answer):  # the study was made again with several objectives
            raise self._no_one_best()
        return FrozenTrial.from_json(answer, self._params)

    def best_trials(self) -> List[FrozenTrial]:
        """The Pareto front (Optuna's ``best_trials``): the COMPLETE trials
        (feasible ones, in a study with constraints) that no other trial
        beats in every objective, in trial order, each with its ``values``.
        In a study of one objective it is the best trial alone. ``[]`` while
        there is none; a :class:`NotFoundError` for a study that does not
        exist."""
        try:
            answer = self.client._transport.request("GET", self._path + "/best")
        except NotFoundError:
            # No COMPLETE (feasible) trial yet, or no such study: the
            # summary's own 404 says the latter.
            self.summary()
            return []
        if _is_front(answer):
            return [FrozenTrial.from_json(t, self._params) for t in answer["trials"]]
        return [FrozenTrial.from_json(answer, self._params)]

    def _no_one_best(self) -> MultiObjectiveError:
        names = ", ".join(self.objective_names)
        return MultiObjectiveError(
            f"study {self.name!r} has several objectives ({names}) and no one best trial: "
            "best_trials() returns its Pareto front"
        )

    def set_budget(self, trials: int) -> Dict[str, Any]:
        """Set the number of trials the study wants (0: no limit) and return
        its summary: run 30, look, run 20 more (``study.set_budget(50)``,
        then :meth:`optimize` again)."""
        answer: Dict[str, Any] = self.client._transport.request("PATCH", self._path, {"trials": trials})
        return answer

    # -- asking ----------------------------------------------------------------

    def ask_batch(self, n: int = 1, *, worker: Optional[str] = None, request_id: Optional[str] = None) -> Batch:
        """Ask for ``n`` trials (1 to 100), proposed together as one batch.

        Every attempt of one ask carries the same ``request_id`` (128 random
        bits unless given), so an attempt sent again after a lost answer gets
        the trials the server handed out to the first, not new ones. Give
        your own ``request_id`` and ``worker`` (kept the same across a
        restart, e.g. a Slurm array task's id) to get the same trials back
        after a crash of this process, while they are still RUNNING: the
        server keeps the latest answer of each worker name.
        """
        body: Dict[str, Any] = {
            "n": n,
            "request_id": request_id or secrets.token_hex(16),
            "worker": worker or self.client.worker or default_worker(),
        }
        self._float_params()  # before the ask: a trial handed out must not be lost to a failed read
        answer = self.client._transport.request("POST", self._path + "/ask", body)
        lease = float(answer.get("lease_seconds") or 0)
        lease = lease if lease > 0 and math.isfinite(lease) else 0.0
        trials = [Trial(self, t, lease) for t in answer.get("trials") or []]
        return Batch(trials=trials, pending=int(answer.get("pending") or 0), lease_seconds=lease)

    @overload
    def ask(self, n: None = None, *, worker: Optional[str] = None, request_id: Optional[str] = None,
            wait: bool = False) -> Optional[Trial]: ...

    @overload
    def ask(self, n: int, *, worker: Optional[str] = None, request_id: Optional[str] = None,
            wait: bool = False) -> List[Trial]: ...

    def ask(self, n: Optional[int] = None, *, worker: Optional[str] = None, request_id: Optional[str] = None,
            wait: bool = False) -> Union[Optional[Trial], List[Trial]]:
        """``ask()`` returns one RUNNING trial, or None once the study's
        budget is used up; ``ask(n)`` a list of up to n (empty once the
        budget is used up).

        With ``wait=True``, once the budget is used up it keeps asking while
        trials are pending elsewhere (as ``boa worker`` does): one whose
        worker crashed comes back when its lease lapses, and is returned.
        """
        while True:
            b = self.ask_batch(1 if n is None else n, worker=worker, request_id=request_id)
            if b.trials or not wait or b.pending == 0:
                if n is None:
                    return b.trials[0] if b.trials else None
                return b.trials
            # Stale trials are reaped by asks: ask often enough to take over
            # a crashed worker's trial soon after its lease lapses.
            time.sleep(min(max(b.lease_seconds / 4, 0.25), 5.0))
            request_id = None  # the empty answer is not kept; a new ask

    def trial(self, *, worker: Optional[str] = None, wait: bool = True) -> Trial:
        """Ask for one trial to use as a context manager::

            with study.trial() as t:
                t.tell(train(**t.params))

        The trial beats in the background while the block runs; an
        exception fails it with the exception and its traceback as the
        reason, and is re-raised; raising :class:`TrialPruned` records it
        PRUNED. :class:`NoTrialError` once the budget is used up (with
        ``wait``, the default, only when no trial is pending anywhere).
        """
        t = self.ask(worker=worker, wait=wait)
        if t is None:
            raise NoTrialError(f"study {self.name!r} has used its trial budget: there is no trial left to ask for")
        return t

    def enqueue(self, params: Mapping[str, Any]) -> FrozenTrial:
        """Queue a configuration of your choice (a known good default): the
        next ask hands it out before any new suggestion. It counts against
        the budget. Not retried once it may have reached the server (a
        second attempt would queue it twice): after a connection error, look
        at :meth:`trials`."""
        answer = self.client._transport.request("POST", self._path + "/trials", {"params": dict(params)}, once=True)
        return FrozenTrial.from_json(answer, self._params)

    # -- the one-line case -----------------------------------------------------

    def optimize(
        self,
        fn: Objective,
        n_trials: Optional[int] = None,
        *,
        n_jobs: int = 1,
        catch: Tuple[Type[BaseException], ...] = (),
        wait: bool = True,
    ) -> int:
        """Run ``fn(trial)`` for ``n_trials`` trials (by default until the
        study's budget is used up), each told with what ``fn`` returns: the
        value, or ``(value, metrics)`` with ``metrics`` a mapping. Returns the
        number of trials run here.

        * ``fn`` may call ``trial.report(step, v)`` and raise
          :class:`TrialPruned` when it returns True; the trial is PRUNED.
        * A NaN or infinite value fails the trial with the server's reason
          (a warning is shown) and optimisation goes on.
        * An exception in ``fn`` fails the trial with its traceback and is
          re-raised, unless it is an instance of one of ``catch``.
        * ``n_jobs`` threads run trials concurrently (each asks its own).
        * With ``wait`` (the default), once the budget is used up it waits
          for trials running elsewhere, and runs any that come back because
          their worker died.
        * In a study of several objectives ``fn`` returns a tuple or list
          of values, one per objective in the study's order (``return acc,
          latency``), or a mapping from the objectives' names; with metrics,
          a pair of that and the metrics' mapping (``return (acc, latency),
          {"ram_kb": 212}``). A pair whose second item is a mapping (or None)
          is always values and metrics, so a two-objective ``fn`` returns
          its values as a tuple of numbers.
        * Values that do not fit the study's objectives (one value for two)
          fail that trial with the server's reason, as ``boa worker`` does
          (a warning is shown), and optimisation goes on.
        """
        if n_jobs < 1:
            raise ValueError(f"n_jobs: want at least 1, got {n_jobs}")
        if n_trials is not None and n_trials < 0:
            raise ValueError(f"n_trials: want at least 0, got {n_trials}")
        lock = threading.Lock()
        state = {"started": 0, "done": 0, "running": 0}
        errors: List[BaseException] = []

        def next_trial() -> Optional[Trial]:
            # ask(wait=True), but a thread does not wait for trials that
            # only its sibling threads run: they finish or fail here.
            while True:
                b = self.ask_batch(1)
                if b.trials:
                    return b.trials[0]
                with lock:
                    ours = state["running"]
                if not wait or b.pending <= ours:
                    return None
                time.sleep(min(max(b.lease_seconds / 4, 0.25), 5.0))

        def claim() -> bool:
            with lock:
                if errors or (n_trials is not None and state["started"] >= n_trials):
                    return False
                state["started"] += 1
                return True

        def loop() -> None:
            while claim():
                try:
                    t = next_trial()
                    if t is None:
                        return
                    # Counted once handed out, so a sibling may count it
                    # late (and wait a little longer), never early.
                    with lock:
                        state["running"] += 1
                    try:
                        self._run(fn, t, catch)
                    finally:
                        with lock:
                            state["running"] -= 1
                except BaseException as e:  # re-raised by the caller's thread
                    with lock:
                        errors.append(e)
                    return
                with lock:
                    state["done"] += 1

        if n_jobs == 1:
            loop()
        else:
            threads = [threading.Thread(target=loop, name=f"boa-optimize-{i}") for i in range(n_jobs)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
        if errors:
            raise errors[0]
        return state["done"]

    @staticmethod
    def _run(fn: Objective, t: Trial, catch: Tuple[Type[BaseException], ...]) -> None:
        try:
            with t:
                out = fn(t)
                if t.finished:
                    return  # fn told it itself
                value, metrics = _split_result(out)
                try:
                    t.tell(value, metrics)
                except ConflictError as e:
                    # Taken for dead meanwhile (no heartbeat within the
                    # lease): the configuration runs elsewhere; the result
                    # is discarded, as boa worker does.
                    warnings.warn(f"boa: trial {t.number}: result discarded: {e.message}", RuntimeWarning, stacklevel=3)
                except BadRequestError as e:
                    # A value the study cannot record (NaN, Inf, a log
                    # transform's 0, values that do not fit its
                    # objectives): the trial fails with the server's
                    # reason, and the study goes on, as boa worker does.
                    t.fail(e.message, metrics=metrics)
                    warnings.warn(f"boa: trial {t.number} failed: {e.message}", RuntimeWarning, stacklevel=3)
        except TrialPruned:
            pass  # handled by the with-block; only a bare TrialPruned outside it gets here
        except catch as e:
            warnings.warn(f"boa: trial {t.number} failed: {type(e).__name__}: {e}", RuntimeWarning, stacklevel=3)


def _split_result(out: Any) -> Tuple[Values, Optional[Mapping[str, float]]]:
    """What an objective returned, as the values to tell and the metrics: a
    tuple or list of two whose second item is a mapping or None is (values,
    metrics); anything else is the values alone (a number, a sequence of
    numbers, a mapping from objective names)."""
    if isinstance(out, (tuple, list)) and len(out) == 2 and (out[1] is None or isinstance(out[1], Mapping)):
        return out[0], out[1]
    return out, None


def _goals(summary: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """The (name, direction) of each objective in a summary: its
    ``objectives``, or for a study of one objective ``value`` (the name
    BOA_RESULT gives it) in the study's ``direction``."""
    objs = summary.get("objectives")
    if isinstance(objs, list) and objs:
        return [(str(o.get("name", "")), str(o.get("direction", "minimize"))) for o in objs]
    return [("value", str(summary.get("direction") or "minimize"))]


def _is_front(answer: Any) -> bool:
    """Whether a best answer is a Pareto front, ``{"trials": [...]}``,
    rather than one trial."""
    return isinstance(answer, dict) and isinstance(answer.get("trials"), list) and "id" not in answer


def _float_names(summary: Mapping[str, Any]) -> FrozenSet[str]:
    space = summary.get("space")
    if not isinstance(space, dict):
        return frozenset()
    return frozenset(k for k, v in space.items() if isinstance(v, dict) and v.get("type") == "float")
