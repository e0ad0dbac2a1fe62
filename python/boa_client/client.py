"""The client of one boa server."""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Union

from ._http import Transport, quote
from .errors import ConflictError
from .study import Study

__all__ = ["Client", "DEFAULT_TIMEOUT", "DEFAULT_RETRY", "DEFAULT_HEARTBEAT"]

#: Seconds one attempt may take (an ask may wait for another process's suggestion).
DEFAULT_TIMEOUT = 120.0
#: Seconds one call spends retrying transient failures.
DEFAULT_RETRY = 120.0
#: Seconds between background heartbeats (at most a third of the server's lease is used).
DEFAULT_HEARTBEAT = 10.0

StudySpec = Union[Mapping[str, Any], str, "os.PathLike[str]", bytes]


class Client:
    """A client of the boa server at ``url`` (``boa serve``), e.g.
    ``Client("http://10.0.0.5:8080", token=open("boa.token").read().strip())``.

    ``token`` is sent as ``Authorization: Bearer <token>``; by default the
    ``BOA_TOKEN`` environment variable, as ``boa worker`` reads it (pass
    ``token=""`` to send none). ``timeout`` bounds one attempt, ``retry`` the
    time one call spends retrying transient failures (0 turns retries off),
    ``heartbeat`` the interval of background heartbeats. ``worker`` names
    this process in the trials it runs (``boa trials``' WORKER column); by
    default host:pid, and the thread's name off the main thread.
    ``on_retry(error, wait_seconds)`` is called before each wait between
    attempts (to log "server unreachable, retrying in 2s").

    A client is safe to share between threads.
    """

    def __init__(
        self,
        url: str = "http://127.0.0.1:8080",
        token: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        retry: float = DEFAULT_RETRY,
        heartbeat: float = DEFAULT_HEARTBEAT,
        worker: Optional[str] = None,
        on_retry: Optional[Callable[[BaseException, float], None]] = None,
    ) -> None:
        if token is None:
            token = os.environ.get("BOA_TOKEN", "")
        if timeout <= 0:
            raise ValueError(f"timeout: want a positive number of seconds, got {timeout}")
        if heartbeat <= 0:
            raise ValueError(f"heartbeat: want a positive number of seconds, got {heartbeat}")
        self._transport = Transport(url, token, timeout, retry, on_retry)
        self.url = self._transport.base
        self.heartbeat = heartbeat
        self.worker = worker

    def __repr__(self) -> str:
        return f"Client({self.url!r})"

    def create_study(self, spec: StudySpec, *, name: Optional[str] = None, exist_ok: bool = False) -> Study:
        """Create a study from the study file of docs/study-file.md given as a
        dict, a path to a YAML or JSON file, or the JSON text as bytes;
        ``name`` replaces the file's name. A YAML file goes to the server as
        it is (the standard library reads no YAML; boa serve does, as boa run
        does). A bad file is a :class:`BadRequestError` naming the field, or
        the line of a YAML file.

        A name already taken is a :class:`ConflictError`; with
        ``exist_ok=True`` the existing study is opened instead (its space is
        not compared with ``spec``). Not retried once it may have reached the
        server; after a connection error, :meth:`open_study` tells whether
        it was created.
        """
        path, content_type = "/api/v1/studies", "application/json"
        yaml = _yaml_file(spec)
        payload: Any = yaml
        if yaml is not None:
            content_type = "application/yaml"
            if name is not None:
                path += "?name=" + quote(name)
            wanted = name if name is not None else _yaml_name(yaml)
        else:
            payload = load_spec(spec)
            if name is not None:
                payload["name"] = name
            wanted = str(payload.get("name", ""))
        try:
            answer = self._transport.request("POST", path, payload, once=True, content_type=content_type)
        except ConflictError:
            if not exist_ok or not wanted:
                raise
            return self.open_study(wanted)
        return Study(self, str(answer["name"]), answer)

    def open_study(self, name: str) -> Study:
        """The existing study ``name``; :class:`NotFoundError` if there is none."""
        summary = self._transport.request("GET", "/api/v1/studies/" + quote(name))
        return Study(self, name, summary)

    def study(self, name: str) -> Study:
        """The study ``name`` without asking the server whether it exists
        (the first call on it says)."""
        return Study(self, name)

    def delete_study(self, name: str) -> int:
        """Delete the study ``name`` with all its trials and return how many
        trials it had; :class:`NotFoundError` if there is none. Not retried
        once it may have reached the server: a second attempt after a lost
        answer would be a 404 for the study just deleted."""
        answer = self._transport.request("DELETE", "/api/v1/studies/" + quote(name), once=True)
        return int(answer.get("trials", 0))

    def studies(self) -> List[Dict[str, Any]]:
        """Every study's summary (``GET /api/v1/studies``)."""
        answer = self._transport.request("GET", "/api/v1/studies")
        return list(answer.get("studies") or [])


def load_spec(spec: StudySpec) -> Dict[str, Any]:
    """The study file as a dict: a copy of a mapping, or a JSON file or text
    read. A YAML file is not read here (see :meth:`Client.create_study`)."""
    if isinstance(spec, Mapping):
        return dict(spec)
    if isinstance(spec, (bytes, bytearray)):
        return _json_object(bytes(spec).decode("utf-8"), "the study given as bytes")
    path = os.fspath(spec)
    return _json_object(_read(path).decode("utf-8"), f"study file {path}")


def _yaml_file(spec: StudySpec) -> Optional[bytes]:
    """The bytes of a study file named *.yaml or *.yml, else None."""
    if isinstance(spec, (Mapping, bytes, bytearray)):
        return None
    path = os.fspath(spec)
    if not path.lower().endswith((".yaml", ".yml")):
        return None
    return _read(path)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ValueError(f"study file {path}: {e.strerror or e}") from None


def _yaml_name(text: bytes) -> str:
    """The top-level ``name:`` of a YAML study file, for exist_ok, or "" when
    it is not a plain scalar on its own line (the server's 409 then stands)."""
    m = re.search(rb"^name:[ \t]*([^#\n]*?)[ \t]*(?:#.*)?$", text, re.MULTILINE)
    if m is None:
        return ""
    value = m.group(1).decode("utf-8")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return value


def _json_object(text: str, what: str) -> Dict[str, Any]:
    try:
        obj = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{what}: not valid JSON: {e}") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{what}: want a JSON object {{\"name\": ..., \"space\": ...}}, got {type(obj).__name__}")
    return obj
