"""Crashes and lost answers: a client killed mid-trial has its trial
recovered by the lease; an ask repeated after a lost answer, or after a
crash with the same request_id, gets the same trials; heartbeats keep a
long trial alive; a create whose answer was lost is not sent twice."""

from __future__ import annotations

import http.server
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import unittest
import urllib.error
import urllib.request
import warnings
from typing import Optional

from boaserver import PYTHON_DIR, BoaServer, simple_spec

import boa_client
from boa_client import BoaConnectionError

LEASE = 2.0  # seconds; short, so that the lease lapses within the test


def child(url: str, code: str, quiet: bool = False) -> subprocess.Popen:  # type: ignore[type-arg]
    """A Python process running code with boa_client importable and the
    client in ``c``; it prints what the test waits for on stdout."""
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("BOA_TOKEN", None)
    # Ctrl-C must raise KeyboardInterrupt in the child, as in a terminal,
    # even when the tests run as a background job, whose processes inherit
    # SIGINT ignored (Python then installs no handler for it).
    prog = ("import signal, sys, time, boa_client\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "c = boa_client.Client(sys.argv[1])\n" + textwrap.dedent(code))
    return subprocess.Popen([sys.executable, "-c", prog, url], stdout=subprocess.PIPE, text=True, env=env,
                            stderr=subprocess.DEVNULL if quiet else None)


def kill(p: subprocess.Popen) -> None:  # type: ignore[type-arg]
    p.send_signal(signal.SIGKILL)
    p.wait()
    if p.stdout is not None:
        p.stdout.close()


def first_line(p: subprocess.Popen, timeout: float = 60) -> str:  # type: ignore[type-arg]
    out: list = []
    th = threading.Thread(target=lambda: out.append(p.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    th.start()
    th.join(timeout)
    if not out or not out[0]:
        p.kill()
        raise AssertionError(f"the child printed nothing (exit {p.poll()})")
    return str(out[0]).strip()


class LeaseTest(unittest.TestCase):
    server: BoaServer

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = BoaServer(lease=f"{LEASE:g}s").start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def test_killed_client_trial_is_recovered_by_the_lease(self) -> None:
        """A client killed (SIGKILL) mid-trial: once the lease lapses its
        trial is failed as stale and its configuration re-queued; the next
        ask gets it and it completes (issue 35)."""
        c = boa_client.Client(self.server.url, token="")
        s = c.create_study(simple_spec("killed", 1))
        p = child(self.server.url, """
            with c.study("killed").trial() as t:
                print(t.id, t.number, flush=True)
                time.sleep(600)   # killed here, heartbeats and all
        """)
        killed_id, killed_number = map(int, first_line(p).split())
        kill(p)
        self.assertEqual(p.returncode, -signal.SIGKILL)
        self.assertEqual(s.trials()[0].state, "RUNNING")
        # The budget of 1 is used, but a trial is pending: ask(wait=True)
        # keeps asking until the lease lapses and the re-run comes back.
        start = time.monotonic()
        t = s.ask(wait=True)
        took = time.monotonic() - start
        assert t is not None
        self.assertEqual(t.retry_of, killed_number)
        self.assertNotEqual(t.id, killed_id)
        self.assertLess(took, 30, "the re-run took too long to come back")
        t.tell(0.5)
        trials = s.trials()
        self.assertEqual([x.state for x in trials], ["FAILED", "COMPLETE"])
        self.assertIn("stale", trials[0].reason)
        self.assertEqual(trials[1].params, trials[0].params)
        self.assertIsNone(s.ask())

    def test_optimize_takes_over_a_killed_clients_trial(self) -> None:
        c = boa_client.Client(self.server.url, token="")
        s = c.create_study(simple_spec("killed-opt", 3))
        p = child(self.server.url, """
            t = c.study("killed-opt").ask()
            print(t.number, flush=True)
            time.sleep(600)
        """)
        number = int(first_line(p))
        kill(p)
        self.assertEqual(s.optimize(lambda t: t["x"]), 3)  # 2 new trials, then the re-run
        trials = s.trials()
        self.assertEqual(sorted(x.state for x in trials), ["COMPLETE"] * 3 + ["FAILED"])
        self.assertEqual([x.retry_of for x in trials if x.retry_of is not None], [number])

    def test_interrupted_client_requeues_its_trial(self) -> None:
        """Ctrl-C (SIGINT) in a with-block fails the trial "interrupted" with
        requeue, as boa worker does: the configuration runs again at once,
        without waiting for the lease."""
        c = boa_client.Client(self.server.url, token="")
        s = c.create_study(simple_spec("interrupted", 1))
        p = child(self.server.url, """
            with c.study("interrupted").trial() as t:
                print(t.number, flush=True)
                time.sleep(600)
        """, quiet=True)  # its KeyboardInterrupt traceback
        number = int(first_line(p))
        p.send_signal(signal.SIGINT)
        p.wait(30)
        if p.stdout is not None:
            p.stdout.close()
        self.assertNotEqual(p.returncode, 0)  # the KeyboardInterrupt was re-raised
        self.assertEqual([(x.state, x.reason) for x in s.trials()], [("FAILED", "interrupted"), ("WAITING", "")])
        t = s.ask()  # no wait: the re-run is WAITING already
        assert t is not None
        self.assertEqual(t.retry_of, number)
        t.tell(1.0)

    def test_heartbeats_keep_a_long_trial_alive(self) -> None:
        """A trial running for 2.5 leases inside the context manager is not
        taken for dead, although asks (which reap stale trials) come all the
        while."""
        c = boa_client.Client(self.server.url, token="")
        s = c.create_study(simple_spec("long", 1))
        stop = threading.Event()

        def reaper() -> None:
            while not stop.wait(0.3):
                s.ask()

        th = threading.Thread(target=reaper)
        with s.trial() as t:
            th.start()
            time.sleep(2.5 * LEASE)
            self.assertFalse(t.lost)
            t.tell(1.0)
        stop.set()
        th.join()
        self.assertEqual([x.state for x in s.trials()], ["COMPLETE"])

    def test_without_heartbeats_the_trial_is_lost(self) -> None:
        c = boa_client.Client(self.server.url, token="")
        s = c.create_study(simple_spec("no-beat", 1))
        t = s.ask()
        assert t is not None
        time.sleep(LEASE + 0.5)
        s.ask()  # reaps it
        with self.assertRaises(boa_client.ConflictError):
            t.heartbeat()
        self.assertTrue(t.lost)
        with self.assertRaises(boa_client.ConflictError) as cm:
            t.tell(1.0)
        self.assertIn("FAILED", cm.exception.message)

    def test_optimize_discards_a_lost_trials_result_and_goes_on(self) -> None:
        c = boa_client.Client(self.server.url, token="")
        s = c.create_study(simple_spec("lost-opt", 2))
        other = boa_client.Client(self.server.url, token="", worker="other")

        def fn(t: boa_client.Trial) -> float:
            t.stop_heartbeats()  # as if this process hung
            time.sleep(LEASE + 0.5)
            rerun = other.study("lost-opt").ask()  # reaps t, and gets its re-run
            assert rerun is not None and rerun.retry_of == t.number
            rerun.tell(0.0)
            return 1.0

        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            self.assertEqual(s.optimize(fn, n_trials=1), 1)
        self.assertTrue(any("result discarded" in str(x.message) for x in w), [str(x.message) for x in w])
        self.assertEqual([(x.state, x.value) for x in s.trials()], [("FAILED", None), ("COMPLETE", 0.0)])


class SameRequestTest(unittest.TestCase):
    def test_reask_after_a_crash_returns_the_same_trials(self) -> None:
        """A process killed after its ask, restarted with the same worker
        name and request_id, gets the same RUNNING trials back rather than
        new ones (the server's idempotent ask)."""
        with BoaServer() as srv:
            c = boa_client.Client(srv.url, token="")
            s = c.create_study(simple_spec("same", 10))
            p = child(srv.url, """
                ts = c.study("same").ask(2, worker="slurm-task-7", request_id="task-7-ask-1")
                print(" ".join(str(t.id) for t in ts), flush=True)
                time.sleep(600)
            """)
            ids = [int(x) for x in first_line(p).split()]
            kill(p)
            again = s.ask(2, worker="slurm-task-7", request_id="task-7-ask-1")
            self.assertEqual([t.id for t in again], ids)
            self.assertEqual(len(s.trials()), 2)
            fresh = s.ask(2, worker="slurm-task-7", request_id="task-7-ask-2")
            self.assertEqual(len({t.id for t in fresh} | set(ids)), 4)


class _LosingProxy(http.server.ThreadingHTTPServer):
    """Forwards to boa serve, but drops the connection instead of answering
    the first POST whose path ends in ``suffix``, after boa serve acted on
    it (the Go client's loseFirst)."""

    daemon_threads = True

    def __init__(self, upstream: str, suffix: str, fail_status: int = 0) -> None:
        self.upstream = upstream
        self.suffix = suffix
        self.fail_status = fail_status  # answer the first match with this status instead, not forwarding it
        self.calls = 0
        self.lost = threading.Event()
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _ProxyHandler)


class _ProxyHandler(http.server.BaseHTTPRequestHandler):
    server: _LosingProxy

    def log_message(self, *args: object) -> None:
        pass

    def _forward(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        body: Optional[bytes] = self.rfile.read(n) if n else None
        px = self.server
        if self.command == "POST" and self.path.endswith(px.suffix):
            with px.lock:
                px.calls += 1
                refuse = px.fail_status and not px.lost.is_set()
                if refuse:
                    px.lost.set()
            if refuse:
                data = b'{"error":"the storage is unavailable, try again"}'
                self.send_response(px.fail_status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
        req = urllib.request.Request(self.server.upstream + self.path, data=body, method=self.command)
        for k in ("Content-Type", "Authorization"):
            if self.headers.get(k):
                req.add_header(k, self.headers[k])
        try:
            with urllib.request.urlopen(req) as r:
                status, data = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, data = e.code, e.read()
        with self.server.lock:
            drop = self.command == "POST" and self.path.endswith(self.server.suffix) and not self.server.lost.is_set()
            if drop:
                self.server.lost.set()
        if drop:
            self.close_connection = True
            return  # no answer: the client cannot know whether it was done
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = _forward
    do_POST = _forward


class LostAnswerTest(unittest.TestCase):
    def proxy(self, upstream: str, suffix: str, fail_status: int = 0) -> _LosingProxy:
        px = _LosingProxy(upstream, suffix, fail_status)
        threading.Thread(target=px.serve_forever, daemon=True).start()
        self.addCleanup(px.server_close)
        self.addCleanup(px.shutdown)
        return px

    def test_ask_retry_gets_the_same_trial(self) -> None:
        with BoaServer() as srv:
            px = self.proxy(srv.url, "/ask")
            c = boa_client.Client(f"http://127.0.0.1:{px.server_address[1]}", token="")
            s = c.create_study(simple_spec("lost-ask", 5))
            t = s.ask()
            self.assertTrue(px.lost.is_set(), "the first answer was not dropped")
            assert t is not None
            trials = s.trials()
            self.assertEqual([(x.id, x.state) for x in trials], [(t.id, "RUNNING")])
            t2 = s.ask()  # another ask: another trial
            assert t2 is not None
            self.assertNotEqual(t2.id, t.id)

    def test_create_is_not_retried_blindly(self) -> None:
        with BoaServer() as srv:
            px = self.proxy(srv.url, "/studies")
            c = boa_client.Client(f"http://127.0.0.1:{px.server_address[1]}", token="")
            with self.assertRaises(BoaConnectionError):
                c.create_study(simple_spec("lost-create", 5))
            self.assertTrue(px.lost.is_set())
            # The server did create it; open_study says so.
            self.assertEqual(c.open_study("lost-create").name, "lost-create")

    def test_transient_statuses_are_retried(self) -> None:
        """A 503 is retried for a tell (safe to repeat) but not for a create,
        which boa serve may have written before its database dropped the
        connection; a 429 is retried for both (the Go client's rules)."""
        with BoaServer() as srv:
            retries: list = []
            for status, suffix, want_calls in ((503, "/tell", 2), (429, "/studies", 2), (503, "/studies", 1)):
                px = self.proxy(srv.url, suffix, fail_status=status)
                c = boa_client.Client(f"http://127.0.0.1:{px.server_address[1]}", token="",
                                      on_retry=lambda e, d: retries.append((e, d)))
                name = f"retry-{status}-{suffix[1:]}"
                if suffix == "/studies":
                    if want_calls == 1:
                        with self.assertRaises(boa_client.ServerError) as cm:
                            c.create_study(simple_spec(name, 2))
                        self.assertEqual(cm.exception.status, 503)
                        self.assertIn("the storage is unavailable", cm.exception.message)
                    else:
                        c.create_study(simple_spec(name, 2))
                else:
                    t = c.create_study(simple_spec(name, 2)).ask()
                    assert t is not None
                    t.tell(1.0)
                    self.assertEqual(c.study(name).trials()[0].state, "COMPLETE")
                self.assertEqual(px.calls, want_calls, f"{status} on {suffix}")
            self.assertEqual(len(retries), 2)
            self.assertEqual(retries[0][0].status, 503)


if __name__ == "__main__":
    unittest.main()
