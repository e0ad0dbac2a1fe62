package sklearn

// Suite is the real-task suite: eight tasks mixing five models and all
// five datasets, six classification and two regression tasks, each chosen
// so that a fit stays well under a second on one core (docs/real-tasks.md
// has the measured times), which keeps 30 trials × 10 seeds × 6 tasks ×
// 5 optimisers within an evening on two cores.
func Suite() []string {
	return []string{
		"sklearn:svm:digits",
		"sklearn:rf:wine",
		"sklearn:ada:breast_cancer",
		"sklearn:lasso:iris",
		"sklearn:dt:digits",
		"sklearn:mlp-adam:iris",
		"sklearn:svm:diabetes",
		"sklearn:lasso:diabetes",
	}
}

// Extra are tasks kept out of the suite, to check that what an optimiser
// gained on the suite carries over to models, datasets and metrics it was
// not tuned on.
func Extra() []string {
	return []string{
		"sklearn:rf:breast_cancer",
		"sklearn:knn:wine",
		"sklearn:gb:iris",
		"sklearn:linear:diabetes",
		"sklearn:rf:diabetes",
		"sklearn:svm:breast_cancer:nll",
		"sklearn:mlp-sgd:wine",
		"sklearn:ada:diabetes:mae",
	}
}
