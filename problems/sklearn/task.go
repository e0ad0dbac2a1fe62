package sklearn

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boaopt/boa/space"
)

// Prefix starts the name of every task.
const Prefix = "sklearn:"

// Folds is the number of cross-validation folds of every task.
const Folds = 3

// DefaultTimeout bounds one evaluation (all folds): far above the slowest
// fit of the zoo, it only catches a worker that hangs.
const DefaultTimeout = 10 * time.Minute

// Problem is one real tuning task: a scikit-learn model's cross-validated
// loss on a dataset as a function of its hyperparameters. It evaluates in
// long-lived Python processes (up to Processes at once, started on demand)
// and remembers every result, so a configuration seen before costs
// nothing. It is safe for concurrent use; Close ends its processes.
type Problem struct {
	name    string
	sp      *space.Space
	metric  string
	setup   map[string]any // the worker's first line
	pool    *pool
	mu      sync.Mutex
	cache   map[string]*entry
	seconds []float64 // the worker's time of each fresh evaluation
}

// entry is a result, or one being computed (done still open), so that
// concurrent evaluations of one configuration fit it once.
type entry struct {
	done chan struct{}
	v    float64
	err  error
}

// Options tune how a Problem runs its workers; the zero value is the default.
type Options struct {
	Python    string        // interpreter; "" finds one with scikit-learn (internal/python.Find)
	Processes int           // at most this many workers; <= 0 means GOMAXPROCS
	Timeout   time.Duration // per evaluation; <= 0 means DefaultTimeout
}

// New returns the task named "sklearn:MODEL:DATASET" or
// "sklearn:MODEL:DATASET:METRIC" (see Names). It starts no process:
// the first Evaluate does, and that is where a missing scikit-learn shows.
func New(name string) (*Problem, error) { return NewWith(name, Options{}) }

// NewWith is New with options.
func NewWith(name string, opt Options) (*Problem, error) {
	m, ds, clf, metric, err := parseName(name)
	if err != nil {
		return nil, err
	}
	est, fixed, params := m.clf, m.fixedClf, m.params
	if !clf {
		est, fixed = m.reg, m.fixedReg
		if m.paramReg != nil {
			params = m.paramReg
		}
	}
	fixed = maps.Clone(fixed)
	if fixed == nil {
		fixed = map[string]any{}
	}
	if m.name == "svm" && metric == "nll" {
		fixed["probability"] = true // predict_proba needs Platt scaling
	}
	sp, err := space.New(params...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err) // a bug in the zoo
	}
	if opt.Processes <= 0 {
		opt.Processes = runtime.GOMAXPROCS(0)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	setup := map[string]any{"task": name, "dataset": ds, "estimator": est, "fixed": fixed, "metric": metric, "folds": Folds}
	return &Problem{
		name: name, sp: sp, metric: metric, setup: setup,
		pool:  newPool(name, opt, setup),
		cache: map[string]*entry{},
	}, nil
}

// parseName splits a task name and checks its parts.
func parseName(name string) (m model, dataset string, clf bool, metric string, err error) {
	bad := func(format string, args ...any) (model, string, bool, string, error) {
		return model{}, "", false, "", fmt.Errorf("%s: "+format, append([]any{name}, args...)...)
	}
	parts := strings.Split(strings.TrimPrefix(name, Prefix), ":")
	if !strings.HasPrefix(name, Prefix) || len(parts) < 2 || len(parts) > 3 {
		return bad("want sklearn:MODEL:DATASET or sklearn:MODEL:DATASET:METRIC, e.g. sklearn:svm:digits")
	}
	mname, dataset := parts[0], parts[1]
	found := false
	for _, d := range datasets {
		if d.name == dataset {
			found, clf = true, d.clf
		}
	}
	if !found {
		return bad("unknown dataset %q; datasets: %s", dataset, strings.Join(datasetNames(), ", "))
	}
	if a, ok := aliases[mname]; ok {
		if a.clf != clf {
			other := "svr"
			if clf {
				other = "svc"
			}
			return bad("%s is for %s datasets; %s is a %s one: use %s (or svm)", mname, kind(a.clf), dataset, kind(clf), other)
		}
		mname = a.model
	}
	m, ok := findModel(mname)
	if !ok {
		return bad("unknown model %q; models: %s", mname, strings.Join(modelNames(), ", "))
	}
	ms := clfMetrics
	if !clf {
		ms = regMetrics
	}
	metric = ms[0]
	if len(parts) == 3 {
		metric = parts[2]
		if !slices.Contains(ms, metric) {
			return bad("metric %q does not apply to %s, a %s dataset; want one of %s", metric, dataset, kind(clf), strings.Join(ms, ", "))
		}
	}
	return m, dataset, clf, metric, nil
}

func kind(clf bool) string {
	if clf {
		return "classification"
	}
	return "regression"
}

func modelNames() []string {
	var out []string
	for _, m := range models {
		out = append(out, m.name)
	}
	return out
}

func datasetNames() []string {
	var out []string
	for _, d := range datasets {
		out = append(out, d.name)
	}
	return out
}

// Names lists every task with its default metric, model by model.
func Names() []string {
	var out []string
	for _, m := range models {
		for _, d := range datasets {
			out = append(out, Prefix+m.name+":"+d.name)
		}
	}
	return out
}

func (p *Problem) Name() string        { return p.name }
func (p *Problem) Space() *space.Space { return p.sp }

// Optimum is unknown for a real task.
func (p *Problem) Optimum() (float64, bool) { return 0, false }

// Evaluate returns the cross-validated loss of configuration a. The loss
// is deterministic (fixed folds, random_state=0), so rng is not used and a
// configuration seen before is answered from memory. An error names the
// task and carries Python's message.
func (p *Problem) Evaluate(a space.Assignment, _ *rand.Rand) (float64, error) {
	c, err := p.sp.Canonical(a)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	b, err := json.Marshal(c) // map keys sorted: one text per configuration
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	key := string(b)
	p.mu.Lock()
	if e, ok := p.cache[key]; ok {
		p.mu.Unlock()
		<-e.done
		return e.v, e.err
	}
	e := &entry{done: make(chan struct{})}
	p.cache[key] = e
	p.mu.Unlock()

	v, secs, err := p.pool.eval(b)
	e.v, e.err = v, err
	p.mu.Lock()
	var perr *pythonError
	if err != nil && !errors.As(err, &perr) {
		delete(p.cache, key) // a crash or timeout says nothing about the configuration: try again next time
	}
	if err == nil {
		p.seconds = append(p.seconds, secs)
	}
	p.mu.Unlock()
	close(e.done)
	return v, err
}

// Seconds returns the worker's time of each evaluation so far that was
// computed rather than remembered, in the order they finished.
func (p *Problem) Seconds() []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.seconds)
}

// Close kills the worker processes and waits for them; an Evaluate after
// Close fails. Workers also exit by themselves when boa does (their
// standard input ends).
func (p *Problem) Close() error { return p.pool.close() }
