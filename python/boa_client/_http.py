"""One JSON request to boa serve, retried as the Go client retries it.

The rules are those of client/retry.go and client/client.go:

* transient failures (429, 502, 503, 504, a refused or dropped connection,
  an attempt that timed out) are retried with exponential backoff and full
  jitter, 0.1 s doubling to 10 s, for at most ``retry`` seconds in all; a
  Retry-After header (capped at 60 s) replaces the drawn wait; any other
  4xx never is: the request itself is wrong;
* a request the server must not act on twice (create a study, queue a
  trial) is retried only when it cannot have reached the server: the
  connection was refused, or the server answered 429. A 503 may come after
  boa serve wrote the study (its database dropped the connection after the
  commit), so it is not retried.

Tell, report and heartbeat are safe to repeat (a tell repeating the result
the trial has is a 200 again), and an ask is made safe by its request_id.
"""

from __future__ import annotations

import errno
import http.client
import json
import math
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Optional

from .errors import BoaConnectionError, BoaError, for_status

FIRST_WAIT = 0.1
MAX_WAIT = 10.0
MAX_RETRY_AFTER = 60.0

_RETRY_STATUS = (429, 502, 503, 504)
_DIAL_ERRNOS = (errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH)


def encode_number(v: Any) -> Any:
    """A value as JSON can carry it: NaN and ±Inf as the strings "NaN",
    "+Inf", "-Inf" (Go's strconv.FormatFloat spelling, which boa serve reads
    for a metric and refuses, saying why, for a value)."""
    if isinstance(v, (bool, str)) or v is None:
        return v
    if isinstance(v, int):
        return v
    try:
        f = float(v)  # numpy scalars and the like
    except (TypeError, ValueError):
        return v  # let the server say what is wrong with it
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    return f


class _NotSent(Exception):
    """Marks a failure that cannot have reached a handler."""


class Transport:
    """Sends JSON requests to one server; safe for concurrent use (each
    request opens its own connection)."""

    def __init__(
        self,
        base_url: str,
        token: Optional[str],
        timeout: float,
        retry: float,
        on_retry: Optional[Callable[[BaseException, float], None]] = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"boa server URL {base_url!r}: want http://HOST:PORT or https://...")
        self.base = base_url.rstrip("/")
        self.token = token or ""
        self.timeout = timeout
        self.retry = max(retry, 0.0)
        self.on_retry = on_retry
        self._rng = random.Random()
        self._lock = threading.Lock()

    def _jitter(self, d: float) -> float:
        with self._lock:
            return self._rng.uniform(0, d)

    def request(
        self, method: str, path: str, body: Any = None, *, once: bool = False, content_type: str = "application/json"
    ) -> Any:
        """Send the request and return the decoded JSON answer (None for 204).

        ``once`` marks a request that must not be acted on twice: it is
        retried only when it cannot have reached the server.
        """
        payload: Optional[bytes] = None
        if body is not None:
            if isinstance(body, (bytes, bytearray)):
                payload = bytes(body)
            else:
                try:
                    payload = json.dumps(body, allow_nan=False).encode("utf-8")
                except (TypeError, ValueError) as e:
                    raise BoaError(f"encoding the request: {e}", None, method, path) from None
        start = time.monotonic()
        wait = FIRST_WAIT
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._once(method, path, payload, content_type)
            except BoaError as e:
                if not self._retriable(e, once):
                    raise
                d = self._jitter(wait)
                if e.retry_after:
                    d = e.retry_after
                spent = time.monotonic() - start
                if spent + d > self.retry:
                    if self.retry == 0:
                        raise
                    e.message += f" (gave up after {attempt} attempts in {spent:.1f}s)"
                    raise
                if self.on_retry is not None:
                    self.on_retry(e, d)
                time.sleep(d)
                wait = min(2 * wait, MAX_WAIT)

    @staticmethod
    def _retriable(e: BoaError, once: bool) -> bool:
        if e.status is not None:
            if once:
                return e.status == 429
            return e.status in _RETRY_STATUS
        if not isinstance(e, BoaConnectionError):
            return False
        if once:
            return isinstance(e.__cause__, _NotSent)
        return True

    def _once(self, method: str, path: str, payload: Optional[bytes], content_type: str = "application/json") -> Any:
        req = urllib.request.Request(self.base + path, data=payload, method=method)
        req.add_header("Accept", "application/json")
        req.add_header("User-Agent", "boa-client-python")
        if payload is not None:
            req.add_header("Content-Type", content_type)
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                data = resp.read()
                if resp.status == 204 or not data.strip():
                    return None
                try:
                    return json.loads(data)
                except ValueError as e:
                    raise BoaError(f"reading the answer: {e}", resp.status, method, path) from None
        except urllib.error.HTTPError as e:
            raise _response_error(method, path, e) from None
        except urllib.error.URLError as e:
            # urllib wraps what failed while connecting and sending; a
            # refused connection or an unknown host cannot have reached a
            # handler (the Go client's notSent).
            reason = e.reason
            if not isinstance(reason, OSError):
                raise BoaError(f"{self.base}: {reason}", None, method, path) from None
            err = BoaConnectionError(f"{self.base}: {_describe(reason)}", None, method, path)
            if isinstance(reason, (ConnectionRefusedError, socket.gaierror)) or reason.errno in _DIAL_ERRNOS:
                raise err from _NotSent()
            raise err from e
        except (OSError, http.client.HTTPException) as e:
            # While reading the answer: the server may have acted.
            raise BoaConnectionError(f"{self.base}: {_describe(e)}", None, method, path) from e


def _describe(reason: Any) -> str:
    if isinstance(reason, socket.timeout):
        return "no answer within the attempt timeout"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (is boa serve running?)"
    return str(reason) or type(reason).__name__


def _response_error(method: str, path: str, e: urllib.error.HTTPError) -> BoaError:
    try:
        data = e.read(1 << 16)
    except Exception:  # the body is only the message; the status is what counts
        data = b""
    message = ""
    try:
        obj = json.loads(data)
        if isinstance(obj, dict) and isinstance(obj.get("error"), str):
            message = obj["error"]
    except ValueError:
        pass
    if not message:
        message = data.decode("utf-8", "replace").strip()
        if len(message) > 200:
            message = message[:200] + "..."
        message = message or "(no message)"
    retry_after = None
    ra = e.headers.get("Retry-After") if e.headers else None
    if ra:
        try:
            secs = int(ra.strip())
            if secs > 0:
                retry_after = min(float(secs), MAX_RETRY_AFTER)
        except ValueError:
            pass
    return for_status(e.code, message, method, path, retry_after)


def quote(segment: str) -> str:
    """A path segment, escaped as Go's url.PathEscape escapes it."""
    return urllib.parse.quote(segment, safe="")
