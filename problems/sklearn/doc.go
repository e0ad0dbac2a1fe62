// Package sklearn holds real hyperparameter-tuning tasks as benchmark
// problems: the cross-validated loss of a scikit-learn model on one of
// scikit-learn's bundled datasets, in the manner of Bayesmark's sklearn
// tasks [reference code: uber/bayesmark] (its model zoo and search spaces,
// bayesmark/sklearn_funcs.py). A task is named
//
//	sklearn:MODEL:DATASET[:METRIC]
//
// with MODEL one of knn, svm (also svc on classification and svr on
// regression datasets), dt, rf, mlp-adam, mlp-sgd, ada, gb, lasso, linear;
// DATASET one of iris, wine, breast_cancer, digits (classification) and
// diabetes (regression); METRIC err (1 - accuracy, the default) or nll
// (log loss) for classification, mse (the default) or mae for regression.
// boa bench --problems sklearn:svm:digits runs one; Suite is the real-task
// suite and Extra the tasks kept out of it. docs/real-tasks.md has the
// table of tasks, their parameters and their cost.
//
// The loss is the mean over Folds = 3 fixed folds (StratifiedKFold or
// KFold, shuffled with random_state=0) and every estimator that takes a
// random_state gets 0, so a task is a deterministic function: a
// configuration seen before is answered from memory and its optimum is
// unknown (Optimum is false). Where this differs from Bayesmark, which
// holds out 20% and runs 5-fold CV on the rest: 3 folds on all rows, to
// keep a trial cheap; the loss 1 - accuracy in place of -accuracy; no
// normalize flag for Lasso and Ridge (gone from scikit-learn 1.2); SVC's
// probability=True only for nll; and gb, a model of ours.
//
// Bayesmark warps some parameters with the logit; those are searched
// here as logit_NAME in logit units (so that uniform sampling and every
// model see Bayesmark's axis), and the worker applies the logistic
// function. A configuration is evaluated by a long-lived Python process
// (worker.py, embedded) that loads the dataset once and answers JSON
// lines, so a trial costs the model's fits and not an interpreter's
// start. A Problem runs up to GOMAXPROCS such processes, started on
// demand, because boa bench evaluates several runs at once on one shared
// Problem; Close kills them, and each also exits when its standard input
// ends, so none outlives boa.
package sklearn
