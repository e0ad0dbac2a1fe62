package sklearn

// Suite is the real-task suite: eight tasks over six models and four
// datasets, five classification and three regression tasks, each with a
// median fit under half a second on one core (docs/real-tasks.md has the
// measured times). The first six (four classification, two regression
// tasks, five models) are the subset meant for 30 trials × 10 seeds ×
// 5 optimisers on two cores. Tasks whose random configurations nearly all
// score the same (dt and rf on digits: 27 of 30 predict one class) and
// the slow ones (gb and lasso on digits, knn on digits, ada) are left out.
func Suite() []string {
	return []string{
		"sklearn:svm:digits",
		"sklearn:rf:wine",
		"sklearn:mlp-adam:iris",
		"sklearn:dt:breast_cancer",
		"sklearn:lasso:diabetes",
		"sklearn:rf:diabetes",
		"sklearn:linear:wine",
		"sklearn:mlp-adam:diabetes",
	}
}

// Extra are tasks kept out of the suite, to check that what an optimiser
// gained on the suite carries over to models, datasets and metrics it was
// not tuned on: the models of the suite on other datasets, models absent
// from it (knn, mlp-sgd, ada, gb) and the other metrics (nll, mae).
func Extra() []string {
	return []string{
		"sklearn:svm:wine",
		"sklearn:rf:breast_cancer",
		"sklearn:knn:breast_cancer",
		"sklearn:mlp-sgd:breast_cancer",
		"sklearn:ada:iris",
		"sklearn:gb:diabetes",
		"sklearn:linear:diabetes",
		"sklearn:svm:breast_cancer:nll",
		"sklearn:dt:diabetes:mae",
	}
}
