"""A graph victim for `boa attack graph`: boa's victim protocol, standard library only.

It is not a trained model: it scores whether a graph has an isolated node,
softened by the smallest degree, p(class 1) = 1 / (1 + exp(-4 (0.5 - min degree))),
so an attack on a connected graph must strip one node of all its edges.
Replace `scores` by your model's predict_proba to attack your own classifier.
"""
import json
import math
import sys


def scores(nodes, edges):
    degree = [0] * nodes
    for u, v in edges:
        degree[u] += 1
        degree[v] += 1
    p = 1 / (1 + math.exp(-4 * (0.5 - min(degree))))
    return [1 - p, p]


for line in sys.stdin:
    q = json.loads(line)
    if q.get("nodes", 0) < 1:
        print(json.dumps({"error": "a graph needs at least one node"}), flush=True)
        continue
    print(json.dumps({"scores": scores(q["nodes"], q["edges"])}), flush=True)
