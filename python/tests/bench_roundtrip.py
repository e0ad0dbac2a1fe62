"""Benchmark (not a test): trials per second through boa_client and a real
boa serve, ask + tell with a free objective, the random sampler (so the
time is the client's, the HTTP round trips' and SQLite's, not a model's).

    cd python && BOA_BIN=/tmp/boa python3 tests/bench_roundtrip.py [--trials 300] [--threads 1,4]
"""

from __future__ import annotations

import argparse
import threading
import time

from boaserver import BoaServer, simple_spec

import boa_client


def run(url: str, name: str, trials: int, threads: int) -> float:
    c = boa_client.Client(url, token="")
    s = c.create_study(simple_spec(name, trials))

    def work() -> None:
        while True:
            t = s.ask()
            if t is None:
                return
            t.tell(t["x"] ** 2)

    start = time.perf_counter()
    ths = [threading.Thread(target=work) for _ in range(threads)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    took = time.perf_counter() - start
    assert len(s.trials("COMPLETE")) == trials
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=300)
    ap.add_argument("--threads", default="1,4")
    args = ap.parse_args()
    with BoaServer() as srv:
        for k in (int(x) for x in args.threads.split(",")):
            took = run(srv.url, f"bench-{k}", args.trials, k)
            print(f"{args.trials} trials, {k} thread(s): {took:.2f}s, {args.trials / took:.0f} trials/s, "
                  f"{1000 * took / args.trials:.1f} ms per ask+tell")


if __name__ == "__main__":
    main()
