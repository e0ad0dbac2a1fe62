"""A real ``boa serve`` for the tests: built once per test run with ``go
build`` from the repository (or taken from ``BOA_BIN``), started on a free
loopback port over a fresh SQLite file, stopped at the end."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request
from typing import List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)

# The tests import the package from the source tree, installed or not.
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

_bin: Optional[str] = None
_bin_dir: Optional[tempfile.TemporaryDirectory] = None  # type: ignore[type-arg]
_bin_lock = threading.Lock()


def boa_binary() -> str:
    """The boa binary: $BOA_BIN, else built from the repository into a
    temporary directory (once per process). Raises unittest.SkipTest when
    neither is possible."""
    global _bin, _bin_dir
    with _bin_lock:
        if _bin is not None:
            return _bin
        env_bin = os.environ.get("BOA_BIN")
        if env_bin:
            if not os.access(env_bin, os.X_OK):
                raise RuntimeError(f"BOA_BIN={env_bin} is not an executable file")
            _bin = env_bin
            return _bin
        go = shutil.which("go") or ("/usr/local/go/bin/go" if os.access("/usr/local/go/bin/go", os.X_OK) else None)
        if go is None:
            raise unittest.SkipTest("boa serve is needed: set BOA_BIN to a built boa, or put go on PATH to build one")
        if not os.path.exists(os.path.join(REPO, "go.mod")):
            raise unittest.SkipTest(f"no boa repository at {REPO} to build boa from: set BOA_BIN")
        _bin_dir = tempfile.TemporaryDirectory(prefix="boa-pytest-bin-")
        out = os.path.join(_bin_dir.name, "boa")
        res = subprocess.run([go, "build", "-o", out, "./cmd/boa"], cwd=REPO, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"go build ./cmd/boa failed:\n{res.stderr}")
        _bin = out
        return _bin


class BoaServer:
    """``boa serve --storage sqlite:DIR/boa.db --addr 127.0.0.1:0`` with the
    given lease and token; ``url`` once started. Use as a context manager,
    or start()/stop()."""

    def __init__(self, lease: str = "", token: str = "") -> None:
        self.lease = lease
        self.token = token
        self.url = ""
        self.dir = tempfile.TemporaryDirectory(prefix="boa-pytest-")
        self.db = os.path.join(self.dir.name, "boa.db")
        self.proc: Optional[subprocess.Popen] = None  # type: ignore[type-arg]
        self.log: List[str] = []

    def start(self) -> "BoaServer":
        args = [boa_binary(), "serve", "--storage", "sqlite:" + self.db, "--addr", "127.0.0.1:0"]
        if self.lease:
            args += ["--lease", self.lease]
        env = dict(os.environ)
        env.pop("BOA_TOKEN", None)
        env.pop("BOA_STORAGE", None)
        if self.token:
            args += ["--token", self.token]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        found = threading.Event()

        def drain() -> None:
            # Reads stderr to the end, so that the server never blocks on a
            # full pipe; the first line says where it listens.
            assert self.proc is not None and self.proc.stderr is not None
            for line in self.proc.stderr:
                self.log.append(line.rstrip("\n"))
                m = re.search(r"listening on (http://\S+)", line)
                if m and not self.url:
                    self.url = m.group(1)
                    found.set()

        self._drain = threading.Thread(target=drain, daemon=True)
        self._drain.start()
        deadline = time.monotonic() + 30
        while not found.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("boa serve did not start:\n" + "\n".join(self.log))
        while True:  # wait until it answers
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("boa serve does not answer /healthz:\n" + "\n".join(self.log))
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stderr is not None:
            self._drain.join(5)  # EOF once the server is gone
            self.proc.stderr.close()
        self.dir.cleanup()

    def __enter__(self) -> "BoaServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def simple_spec(name: str, trials: int, **extra: object) -> dict:
    """A small study: one float and one int, random sampler, seeded."""
    spec = {
        "name": name,
        "sampler": "random",
        "seed": 1,
        "trials": trials,
        "space": {"x": {"type": "float", "low": -5, "high": 5}, "n": {"type": "int", "low": 1, "high": 4}},
    }
    spec.update(extra)
    return spec
