#!/usr/bin/env python3
"""A victim for `boa attack image`: a scikit-learn network on the 8×8 digits.

    python3 examples/attack/victim.py --write-png 0 digit.png   # a held-out digit; prints its label
    boa attack image --image digit.png --target 3 --budget 200 --out adv.png \\
        -- python3 examples/attack/victim.py

Run as a victim (no option), it trains an MLPClassifier on the first 1500
of scikit-learn's 1797 digits (pixels scaled to [0, 1]), prints its accuracy
on the other 297 to stderr, and then speaks boa's victim protocol: it reads
one JSON line per query from stdin, {"shape": [8, 8, 1], "pixels": [...]},
and answers one line on stdout, {"scores": [p_0, ..., p_9]} (the class
probabilities), or {"error": "..."} for an input it cannot score. It exits
when stdin closes. Needs python3-sklearn (Debian) or scikit-learn.
"""

import argparse
import json
import struct
import sys
import zlib

from sklearn.datasets import load_digits
from sklearn.neural_network import MLPClassifier

TRAIN = 1500  # the first TRAIN images train the model, the rest are the test set


def data():
    digits = load_digits()
    x = digits.images / 16.0  # 8×8, values 0..16 scaled to [0, 1]
    return x, digits.target


def write_png(path, image):
    """Writes image (rows of values in [0, 1]) as an 8-bit grey PNG, with
    only the standard library: each chunk is length, type, data, CRC."""

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    h, w = len(image), len(image[0])
    # Filter type 0 (none) in front of every row.
    raw = b"".join(b"\x00" + bytes(int(round(v * 255)) for v in row) for row in image)
    header = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)  # 8-bit, grey, no interlace
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def score(model, line):
    q = json.loads(line)
    if q.get("shape") != [8, 8, 1]:
        return {"error": "want an 8×8 grey image, shape [8, 8, 1], got shape %s" % (q.get("shape"),)}
    pixels = q.get("pixels")
    if not isinstance(pixels, list) or len(pixels) != 64:
        return {"error": "want 64 pixels"}
    return {"scores": model.predict_proba([pixels])[0].tolist()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write-png", nargs=2, metavar=("INDEX", "PATH"),
                    help="write held-out image INDEX as an 8-bit grey PNG to PATH, print its label and exit")
    args = ap.parse_args()

    x, y = data()
    if args.write_png:
        i, path = int(args.write_png[0]), args.write_png[1]
        test = x[TRAIN:]
        if not 0 <= i < len(test):
            sys.exit("victim.py: INDEX must be in 0..%d" % (len(test) - 1))
        write_png(path, test[i])
        print(y[TRAIN + i])
        return

    flat = x.reshape(len(x), -1)  # channels last, rows first: the protocol's order
    model = MLPClassifier(hidden_layer_sizes=(64,), max_iter=500, random_state=0)
    model.fit(flat[:TRAIN], y[:TRAIN])
    print("victim.py: test accuracy %.3f on %d digits" % (model.score(flat[TRAIN:], y[TRAIN:]), len(flat) - TRAIN),
          file=sys.stderr, flush=True)

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = score(model, line)
        except Exception as e:  # one bad query is not the end of the attack
            reply = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
