package pruner

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/boaopt/boa/curve"
)

func TestFieldsAreSpecTags(t *testing.T) {
	var tags []string
	st := reflect.TypeFor[Spec]()
	for i := range st.NumField() {
		tags = append(tags, strings.Split(st.Field(i).Tag.Get("json"), ",")[0])
	}
	if !reflect.DeepEqual(tags, Fields) {
		t.Errorf("Fields = %v, the JSON tags are %v", Fields, tags)
	}
}

// parse reads a Spec from JSON, as a study file's parser does.
func parse(t *testing.T, js string) Spec {
	t.Helper()
	var s Spec
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return s
}

// Build applies Optuna's defaults for the fields left out.
func TestSpecBuildDefaults(t *testing.T) {
	for _, tc := range []struct {
		js   string
		want Pruner
	}{
		{`{"type":""}`, Nop{}},
		{`{"type":"none"}`, Nop{}},
		{`{"type":"median"}`, Percentile{Q: 50, StartupTrials: 5, WarmupSteps: 0, IntervalSteps: 1, MinTrials: 1}},
		{`{"type":"percentile","percentile":25}`, NewPercentile(25)},
		{`{"type":"median","n_startup_trials":0,"n_warmup_steps":3,"interval_steps":2,"n_min_trials":4}`,
			Percentile{Q: 50, StartupTrials: 0, WarmupSteps: 3, IntervalSteps: 2, MinTrials: 4}},
		{`{"type":"successive_halving"}`, SuccessiveHalving{MinResource: 0, ReductionFactor: 4}},
		{`{"type":"asha","min_resource":2,"reduction_factor":3,"min_early_stopping_rate":1,"bootstrap_count":2}`,
			SuccessiveHalving{MinResource: 2, ReductionFactor: 3, MinEarlyStoppingRate: 1, BootstrapCount: 2}},
		{`{"type":"hyperband"}`, Hyperband{MinResource: 1, MaxResource: 0, ReductionFactor: 3}},
		{`{"type":"hyperband","min_resource":2,"max_resource":100,"reduction_factor":2,"bootstrap_count":1}`,
			Hyperband{MinResource: 2, MaxResource: 100, ReductionFactor: 2, BootstrapCount: 1}},
		{`{"type":"threshold","lower":0.5}`, Threshold{Lower: 0.5, Upper: math.Inf(1), IntervalSteps: 1}},
		{`{"type":"threshold","upper":2,"n_warmup_steps":1,"interval_steps":3}`,
			Threshold{Lower: math.Inf(-1), Upper: 2, WarmupSteps: 1, IntervalSteps: 3}},
		{`{"type":"median","estimator":"tse"}`, Estimated{Base: latestMedian, Estimator: curve.TSE{}}},
		{`{"type":"median","estimator":"tse-e"}`, Estimated{Base: latestMedian, Estimator: curve.TSEE{E: 1}}},
		{`{"type":"hyperband","estimator":"tse-e","e":3}`, Estimated{Base: NewHyperband(), Estimator: curve.TSEE{E: 3}}},
		{`{"type":"successive_halving","estimator":"tse-ema"}`, Estimated{Base: NewSuccessiveHalving(), Estimator: curve.TSEEMA{Gamma: 0.999}}},
		{`{"type":"median","estimator":"tse-ema","gamma":0.9}`, Estimated{Base: latestMedian, Estimator: curve.TSEEMA{Gamma: 0.9}}},
	} {
		got, err := parse(t, tc.js).Build()
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Build = %#v, %v; want %#v", tc.js, got, err, tc.want)
		}
	}
}

// Every refusal names its field and what is wanted.
func TestSpecBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		js   string
		want []string
	}{
		{`{"type":"medain"}`, []string{"pruner.type", `"medain"`, "none, median, percentile, successive_halving (or asha), hyperband and threshold"}},
		{`{"type":"median","percentile":30}`, []string{"pruner.percentile", "median is percentile 50", "type percentile"}},
		{`{"type":"hyperband","percentile":30}`, []string{"pruner.percentile", "type hyperband does not take it",
			"min_resource, max_resource, reduction_factor, bootstrap_count, estimator, e and gamma"}},
		{`{"type":"threshold","lower":0,"reduction_factor":2}`, []string{"pruner.reduction_factor", "lower, upper, n_warmup_steps, interval_steps"}},
		{`{"type":"successive_halving","max_resource":9}`, []string{"pruner.max_resource", "does not take it"}},
		{`{"type":"none","n_warmup_steps":3}`, []string{"pruner.n_warmup_steps", "type none takes no fields"}},
		{`{"type":"none","estimator":"tse"}`, []string{"pruner.estimator", "type none takes no fields"}},
		{`{"type":"percentile"}`, []string{"pruner.percentile: missing", "[0, 100]"}},
		{`{"type":"percentile","percentile":101}`, []string{"pruner.percentile: 101, want a number in [0, 100]"}},
		{`{"type":"percentile","percentile":-1}`, []string{"pruner.percentile: -1, want a number in [0, 100]"}},
		{`{"type":"median","n_startup_trials":-1}`, []string{"pruner.n_startup_trials: -1, want an integer ≥ 0"}},
		{`{"type":"median","n_warmup_steps":-2}`, []string{"pruner.n_warmup_steps: -2, want an integer ≥ 0"}},
		{`{"type":"median","interval_steps":0}`, []string{"pruner.interval_steps: 0, want an integer ≥ 1"}},
		{`{"type":"median","n_min_trials":0}`, []string{"pruner.n_min_trials: 0, want an integer ≥ 1"}},
		{`{"type":"successive_halving","min_resource":0}`, []string{"pruner.min_resource: 0, want an integer ≥ 1", "auto"}},
		{`{"type":"successive_halving","reduction_factor":1}`, []string{"pruner.reduction_factor: 1, want an integer ≥ 2"}},
		{`{"type":"successive_halving","min_early_stopping_rate":-1}`, []string{"pruner.min_early_stopping_rate: -1, want an integer ≥ 0"}},
		{`{"type":"successive_halving","min_resource":1,"bootstrap_count":-1}`, []string{"pruner.bootstrap_count: -1, want an integer ≥ 0"}},
		{`{"type":"successive_halving","bootstrap_count":2}`, []string{"pruner.bootstrap_count: 2 needs a min_resource"}},
		{`{"type":"hyperband","min_resource":0}`, []string{"pruner.min_resource: 0, want an integer ≥ 1"}},
		{`{"type":"hyperband","min_resource":5,"max_resource":4}`, []string{"pruner.max_resource: 4, want an integer ≥ 5", "auto"}},
		{`{"type":"hyperband","reduction_factor":1}`, []string{"pruner.reduction_factor: 1, want an integer ≥ 2"}},
		{`{"type":"hyperband","max_resource":9,"bootstrap_count":-1}`, []string{"pruner.bootstrap_count: -1, want an integer ≥ 0"}},
		{`{"type":"hyperband","bootstrap_count":1}`, []string{"pruner.bootstrap_count: 1 needs a max_resource"}},
		{`{"type":"threshold"}`, []string{"pruner.lower, pruner.upper: neither is set"}},
		{`{"type":"threshold","lower":2,"upper":1}`, []string{"pruner.lower: 2 is above pruner.upper 1"}},
		{`{"type":"threshold","upper":1,"n_warmup_steps":-1}`, []string{"pruner.n_warmup_steps: -1, want an integer ≥ 0"}},
		{`{"type":"threshold","upper":1,"interval_steps":0}`, []string{"pruner.interval_steps: 0, want an integer ≥ 1"}},
		{`{"type":"median","estimator":"sovl"}`, []string{"pruner.estimator", `"sovl"`, "tse, tse-e or tse-ema"}},
		{`{"type":"median","e":2}`, []string{"pruner.e: only with estimator tse-e"}},
		{`{"type":"median","estimator":"tse","e":2}`, []string{"pruner.e: only with estimator tse-e"}},
		{`{"type":"median","estimator":"tse-e","gamma":0.9}`, []string{"pruner.gamma: only with estimator tse-ema"}},
		{`{"type":"median","estimator":"tse-e","e":0}`, []string{"pruner.e: 0, want an integer ≥ 1"}},
		{`{"type":"median","estimator":"tse-ema","gamma":0}`, []string{"pruner.gamma: 0, want a number in (0, 1]"}},
		{`{"type":"median","estimator":"tse-ema","gamma":1.5}`, []string{"pruner.gamma: 1.5, want a number in (0, 1]"}},
		// All that is wrong at once.
		{`{"type":"median","interval_steps":0,"n_min_trials":0}`, []string{"pruner.interval_steps: 0", "; pruner.n_min_trials: 0"}},
	} {
		p, err := parse(t, tc.js).Build()
		if err == nil {
			t.Errorf("%s: Build = %#v, want an error", tc.js, p)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.js, err, w)
			}
		}
	}
	nan := math.NaN()
	for _, s := range []Spec{
		{Type: "percentile", Percentile: &nan},
		{Type: "threshold", Lower: &nan},
		{Type: "median", Estimator: "tse-ema", Gamma: &nan},
	} {
		if _, err := s.Build(); err == nil || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("%v: Build error %v, want one naming the NaN", s, err)
		}
	}
}

func TestSpecString(t *testing.T) {
	for _, tc := range []struct{ js, want string }{
		{`{"type":""}`, "none"},
		{`{"type":"none"}`, "none"},
		{`{"type":"median"}`, "median"},
		{`{"type":"successive_halving","reduction_factor":3}`, "successive_halving(reduction_factor=3)"},
		{`{"type":"asha","min_resource":2}`, "successive_halving(min_resource=2)"},
		{`{"type":"percentile","percentile":25,"n_warmup_steps":5}`, "percentile(percentile=25, n_warmup_steps=5)"},
		{`{"type":"threshold","lower":-1.5,"upper":1e9}`, "threshold(lower=-1.5, upper=1e+09)"},
		{`{"type":"median","estimator":"tse-ema","gamma":0.99}`, "median(estimator=tse-ema, gamma=0.99)"},
		{`{"type":"foo"}`, "foo"},
	} {
		if got := parse(t, tc.js).String(); got != tc.want {
			t.Errorf("%s: String = %q, want %q", tc.js, got, tc.want)
		}
	}
}

// latestMedian is the median pruner as Spec.Build makes it under an
// estimator: comparing the latest estimate (Percentile.Latest).
var latestMedian = func() Percentile { p := NewMedian(); p.Latest = true; return p }()
