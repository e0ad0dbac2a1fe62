#!/usr/bin/env python3
"""One trial of examples/infotheoretic: the svm_digits task of spec
gp-and-acquisitions §9.4, boa's stand-in for the real-world HPO of seed 000
§3.3.4. An RBF C-SVC (scikit-learn) on the UCI digits, pixels scaled to
[0, 1], scored by the error of 5-fold stratified cross-validation, reported
in boa's trial protocol (BOA_RESULT)."""

import argparse
import csv
import gzip
import os

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import SVC

p = argparse.ArgumentParser(description=__doc__)
p.add_argument("--C", type=float, required=True)
p.add_argument("--gamma", type=float, required=True)
p.add_argument("--data", default="../shared/data/sklearn-datasets/digits.csv.gz",
               help="the digits as CSV (64 pixels, then the label), read in place; "
                    "scikit-learn's bundled copy of the same data when absent")
a = p.parse_args()

if os.path.exists(a.data):
    with gzip.open(a.data, "rt") as f:
        rows = np.array([[float(v) for v in r] for r in csv.reader(f)])
    X, y = rows[:, :-1], rows[:, -1].astype(int)
else:
    X, y = load_digits(return_X_y=True)
X = X / 16.0  # pixels 0..16 scaled to [0, 1] (spec §9.4)

folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
accuracy = cross_val_score(SVC(C=a.C, gamma=a.gamma, kernel="rbf"), X, y, cv=folds).mean()
print(f"BOA_RESULT {1 - accuracy:.6f}")
