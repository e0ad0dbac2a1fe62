#!/usr/bin/env python3
"""One trial of examples/constrained: a scikit-learn random forest on the
digits bundled with scikit-learn, scored by 3-fold cross-validated accuracy,
with the size of the fitted model (what a device has to store) and its
prediction latency reported as metrics, in boa's trial protocol."""

import argparse
import pickle
import time

from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score

p = argparse.ArgumentParser(description=__doc__)
p.add_argument("--n-estimators", type=int, default=100)
p.add_argument("--max-depth", type=int, default=None)
p.add_argument("--min-samples-leaf", type=int, default=1)
p.add_argument("--max-features", type=float, default=0.125)
p.add_argument("--criterion", choices=["gini", "entropy"], default="gini")
a = p.parse_args()

X, y = load_digits(return_X_y=True)
model = RandomForestClassifier(
    n_estimators=a.n_estimators,
    max_depth=a.max_depth,
    min_samples_leaf=a.min_samples_leaf,
    max_features=a.max_features,
    criterion=a.criterion,
    random_state=0,
    n_jobs=1,
)
folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
accuracy = cross_val_score(model, X, y, cv=folds).mean()

# The deployed model: fitted on all the data, measured as stored (pickled)
# and as it answers one query at a time.
model.fit(X, y)
model_kb = len(pickle.dumps(model, protocol=4)) / 1000
start = time.perf_counter()
for row in X[:50]:
    model.predict(row.reshape(1, -1))
predict_ms = (time.perf_counter() - start) / 50 * 1000

print(f"BOA_METRIC model_kb {model_kb:.3f}")
print(f"BOA_METRIC predict_ms {predict_ms:.3f}")
print(f"BOA_RESULT {accuracy:.6f}")
