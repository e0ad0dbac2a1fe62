package sklearn

import (
	"math"

	"github.com/boaopt/boa/space"
)

// model is one entry of the model zoo: the scikit-learn estimators for
// classification and regression, their fixed arguments and the searched
// ones. The spaces are Bayesmark's (uber/bayesmark, bayesmark/sklearn_funcs.py,
// the knn_cfg ... linear_cfg_reg dictionaries and MODELS_CLF/MODELS_REG),
// except where a comment says otherwise.
type model struct {
	name     string
	clf, reg string         // dotted estimator paths; "" when the model has no such counterpart
	fixedClf map[string]any // fixed arguments of the classifier
	fixedReg map[string]any // of the regressor
	params   []space.Param  // the searched arguments (classifier and regressor alike)
	paramReg []space.Param  // the regressor's, when they differ (lasso, linear)
	ours     bool           // not in Bayesmark's zoo: a space of ours
}

// logit is Bayesmark's "logit" warping. A parameter on that scale is
// searched as logit_NAME in logit units, so that every optimiser sees the
// axis Bayesmark's optimisers see; the worker maps it back with the
// logistic function.
func logit(name string, lo, hi float64) space.Param {
	f := func(p float64) float64 { return math.Log(p / (1 - p)) }
	return space.Param{Name: "logit_" + name, Kind: space.Float, Low: f(lo), High: f(hi)}
}

func float(name string, lo, hi float64, log bool) space.Param {
	return space.Param{Name: name, Kind: space.Float, Low: lo, High: hi, Log: log}
}

func integer(name string, lo, hi float64, log bool) space.Param {
	return space.Param{Name: name, Kind: space.Int, Low: lo, High: hi, Log: log}
}

func boolean(name string) space.Param { return space.Param{Name: name, Kind: space.Bool} }

// tree is the space of Bayesmark's dt_cfg and rf_cfg (the same six
// parameters; rf_cfg lists max_features second, which changes nothing).
func tree() []space.Param {
	return []space.Param{
		integer("max_depth", 1, 15, false),
		logit("min_samples_split", 0.01, 0.99),
		logit("min_samples_leaf", 0.01, 0.49),
		logit("min_weight_fraction_leaf", 0.01, 0.49),
		logit("max_features", 0.01, 0.99),
		float("min_impurity_decrease", 0, 0.5, false),
	}
}

// mlp is the part of Bayesmark's mlp_adam_cfg and mlp_sgd_cfg that both share.
func mlp() []space.Param {
	return []space.Param{
		integer("hidden_layer_sizes", 50, 200, false),
		float("alpha", 1e-5, 1e1, true),
		integer("batch_size", 10, 250, false),
		float("learning_rate_init", 1e-5, 1e-1, true),
		float("tol", 1e-5, 1e-1, true),
		logit("validation_fraction", 0.1, 0.9),
	}
}

// models is the zoo, in the order of the documentation.
var models = []model{
	{
		name: "knn", clf: "sklearn.neighbors.KNeighborsClassifier", reg: "sklearn.neighbors.KNeighborsRegressor",
		params: []space.Param{integer("n_neighbors", 1, 25, false), integer("p", 1, 4, false)},
	},
	{
		// Bayesmark's SVC has probability=True for its nll metric; New
		// sets it only for nll, since Platt scaling's inner 5-fold CV
		// multiplies the cost and predict does not use it.
		name: "svm", clf: "sklearn.svm.SVC", reg: "sklearn.svm.SVR",
		fixedClf: map[string]any{"kernel": "rbf"}, fixedReg: map[string]any{"kernel": "rbf"},
		params: []space.Param{float("C", 1, 1e3, true), float("gamma", 1e-4, 1e-3, true), float("tol", 1e-5, 1e-1, true)},
	},
	{
		name: "dt", clf: "sklearn.tree.DecisionTreeClassifier", reg: "sklearn.tree.DecisionTreeRegressor",
		params: tree(),
	},
	{
		name: "rf", clf: "sklearn.ensemble.RandomForestClassifier", reg: "sklearn.ensemble.RandomForestRegressor",
		fixedClf: map[string]any{"n_estimators": 10}, fixedReg: map[string]any{"n_estimators": 10},
		params: tree(),
	},
	{
		name: "mlp-adam", clf: "sklearn.neural_network.MLPClassifier", reg: "sklearn.neural_network.MLPRegressor",
		fixedClf: map[string]any{"solver": "adam", "early_stopping": true},
		fixedReg: map[string]any{"solver": "adam", "early_stopping": true},
		params: append(mlp(),
			logit("beta_1", 0.5, 0.99),
			logit("beta_2", 0.9, 1-1e-6),
			float("epsilon", 1e-9, 1e-6, true)),
	},
	{
		// Bayesmark's regressor uses tanh: "regression crashes often with relu".
		name: "mlp-sgd", clf: "sklearn.neural_network.MLPClassifier", reg: "sklearn.neural_network.MLPRegressor",
		fixedClf: map[string]any{"solver": "sgd", "early_stopping": true, "learning_rate": "invscaling", "nesterovs_momentum": true},
		fixedReg: map[string]any{"solver": "sgd", "early_stopping": true, "learning_rate": "invscaling", "nesterovs_momentum": true, "activation": "tanh"},
		params: append(mlp()[:4],
			logit("power_t", 0.1, 0.9),
			float("tol", 1e-5, 1e-1, true),
			logit("momentum", 0.001, 0.999),
			logit("validation_fraction", 0.1, 0.9)),
	},
	{
		name: "ada", clf: "sklearn.ensemble.AdaBoostClassifier", reg: "sklearn.ensemble.AdaBoostRegressor",
		params: []space.Param{integer("n_estimators", 10, 100, false), float("learning_rate", 1e-4, 1e1, true)},
	},
	{
		// Not in Bayesmark (its boosting model is ada). The usual ranges,
		// kept small so that a fit stays cheap: at most 100 stages of trees
		// of depth 5 (one tree per class and stage for a classifier).
		name: "gb", clf: "sklearn.ensemble.GradientBoostingClassifier", reg: "sklearn.ensemble.GradientBoostingRegressor",
		params: []space.Param{
			integer("n_estimators", 10, 100, false),
			float("learning_rate", 1e-3, 1, true),
			integer("max_depth", 1, 5, false),
			float("subsample", 0.5, 1, false),
		},
		ours: true,
	},
	{
		// The regressor drops Bayesmark's normalize flag: scikit-learn 1.2
		// removed that argument of Lasso and Ridge.
		name: "lasso", clf: "sklearn.linear_model.LogisticRegression", reg: "sklearn.linear_model.Lasso",
		fixedClf: map[string]any{"penalty": "l1", "fit_intercept": true, "solver": "liblinear", "multi_class": "ovr"},
		params:   []space.Param{float("C", 1e-2, 1e2, true), float("intercept_scaling", 1e-2, 1e2, true)},
		paramReg: []space.Param{
			float("alpha", 1e-2, 1e2, true),
			boolean("fit_intercept"),
			integer("max_iter", 10, 5000, true),
			float("tol", 1e-5, 1e-1, true),
			boolean("positive"),
		},
	},
	{
		name: "linear", clf: "sklearn.linear_model.LogisticRegression", reg: "sklearn.linear_model.Ridge",
		fixedClf: map[string]any{"penalty": "l2", "fit_intercept": true, "solver": "liblinear", "multi_class": "ovr"},
		fixedReg: map[string]any{"solver": "auto"},
		params:   []space.Param{float("C", 1e-2, 1e2, true), float("intercept_scaling", 1e-2, 1e2, true)},
		paramReg: []space.Param{
			float("alpha", 1e-2, 1e2, true),
			boolean("fit_intercept"),
			integer("max_iter", 10, 5000, true),
			float("tol", 1e-4, 1e-1, true),
		},
	},
}

// aliases are the names of scikit-learn's classes for the SVM, each valid
// on its kind of dataset only.
var aliases = map[string]struct {
	model string
	clf   bool
}{
	"svc": {"svm", true},
	"svr": {"svm", false},
}

// datasets are scikit-learn's bundled datasets (sklearn.datasets.load_*,
// shipped with the package, so no download), with whether they are
// classification tasks. Bayesmark's boston is gone from scikit-learn 1.2.
var datasets = []struct {
	name string
	clf  bool
}{
	{"iris", true},
	{"wine", true},
	{"breast_cancer", true},
	{"digits", true},
	{"diabetes", false},
}

// metrics are the losses: Bayesmark's acc (as the error 1 - accuracy, to
// be minimised) and nll for classifiers, mse and mae for regressors; the
// first of each kind is the default.
var (
	clfMetrics = []string{"err", "nll"}
	regMetrics = []string{"mse", "mae"}
)

func findModel(name string) (model, bool) {
	for _, m := range models {
		if m.name == name {
			return m, true
		}
	}
	return model{}, false
}
