package lcbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/boaopt/boa/onnx"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/space"
)

// MinEpoch and MaxEpoch bound the fidelity: the surrogate was fitted on
// epochs 1 to 52 of LCBench's curves.
const (
	MinEpoch = 1
	MaxEpoch = 52
)

// DirEnv names the environment variable that gives the folder holding
// yahpo/lcbench (../shared/data), as for the other problems' data.
const DirEnv = "BOA_DATA_DIR"

// ErrNoData is wrapped when the surrogate's files are absent; boa bench
// skips such problems.
var ErrNoData = mixed.ErrNoData

// files are the surrogate's files, all read from one folder.
var files = []string{"model.onnx", "config_space.json", "encoding.json"}

// Config is one configuration of the seven hyper-parameters, on their
// original scale; bounds as in config_space.json (Surrogate.Space).
type Config struct {
	BatchSize    int     // 16 to 512, log scale
	LearningRate float64 // 1e-4 to 0.1, log scale
	Momentum     float64 // 0.1 to 0.99
	WeightDecay  float64 // 1e-5 to 0.1
	NumLayers    int     // 1 to 5
	MaxUnits     int     // 64 to 1024, log scale
	MaxDropout   float64 // 0 to 1
}

// names are the hyper-parameters in the model's x_cont order after the
// epoch, YAHPO's names [reference code: slds-lmu/yahpo_gym].
var names = []string{"batch_size", "learning_rate", "momentum", "weight_decay", "num_layers", "max_units", "max_dropout"}

// values returns c in the order of names.
func (c Config) values() []float64 {
	return []float64{float64(c.BatchSize), c.LearningRate, c.Momentum, c.WeightDecay, float64(c.NumLayers), float64(c.MaxUnits), c.MaxDropout}
}

// Assignment returns c as a point of Surrogate.Space.
func (c Config) Assignment() space.Assignment {
	return space.Assignment{
		"batch_size": c.BatchSize, "learning_rate": c.LearningRate, "momentum": c.Momentum,
		"weight_decay": c.WeightDecay, "num_layers": c.NumLayers, "max_units": c.MaxUnits, "max_dropout": c.MaxDropout,
	}
}

// ConfigOf reads a point of Surrogate.Space.
func ConfigOf(a space.Assignment) (Config, error) {
	var v [7]float64
	for i, n := range names {
		switch x := a[n].(type) {
		case float64:
			v[i] = x
		case int:
			v[i] = float64(x)
		default:
			return Config{}, fmt.Errorf("lcbench: %s is %v (%T), want a number", n, a[n], a[n])
		}
	}
	for _, i := range []int{0, 4, 5} {
		if v[i] != math.Trunc(v[i]) {
			return Config{}, fmt.Errorf("lcbench: %s = %v is not an integer", names[i], v[i])
		}
	}
	return Config{BatchSize: int(v[0]), LearningRate: v[1], Momentum: v[2], WeightDecay: v[3], NumLayers: int(v[4]), MaxUnits: int(v[5]), MaxDropout: v[6]}, nil
}

// Result is the surrogate's prediction for one configuration at one epoch.
type Result struct {
	Time                 float64 // wall-clock seconds of training up to this epoch
	ValAccuracy          float64 // percent
	ValCrossEntropy      float64
	ValBalancedAccuracy  float64 // in [0, 1]
	TestCrossEntropy     float64
	TestBalancedAccuracy float64 // in [0, 1]
}

// Surrogate is the loaded LCBench surrogate. It is immutable and safe for
// concurrent use.
type Surrogate struct {
	model    *onnx.Model
	tasks    []string
	codes    map[string]int32
	space    *space.Space
	defaults Config
}

// Dir returns the folder of the surrogate's files: $BOA_DATA_DIR/yahpo/lcbench,
// or shared/data/yahpo/lcbench in the working directory or one of its
// parents (../shared/data beside the repository). An absent folder gives an
// error wrapping ErrNoData that says where it looked.
func Dir() (string, error) {
	rel := filepath.Join("yahpo", "lcbench")
	has := func(dir string) bool {
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				return false
			}
		}
		return true
	}
	if d := os.Getenv(DirEnv); d != "" {
		if dir := filepath.Join(d, rel); has(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("%w: the LCBench surrogate is not in %s (from %s)", ErrNoData, filepath.Join(d, rel), DirEnv)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: %v; set %s to the folder that holds yahpo/lcbench", ErrNoData, err, DirEnv)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if dir := filepath.Join(d, "shared", "data", rel); has(dir) {
			return dir, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Errorf("%w: shared/data/%s not found in %s or its parents; set %s to the folder that holds yahpo/lcbench (../shared/data beside the repository)",
		ErrNoData, rel, wd, DirEnv)
}

// Load reads the surrogate from dir, the folder of model.onnx,
// config_space.json and encoding.json; "" means Dir(). It checks that the
// three agree: the model's inputs and output width, every task of the
// space having a code, and the seven hyper-parameters being there.
func Load(dir string) (*Surrogate, error) {
	if dir == "" {
		var err error
		if dir, err = Dir(); err != nil {
			return nil, fmt.Errorf("lcbench: %w", err)
		}
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lcbench: %w: %s is absent", ErrNoData, filepath.Join(dir, f))
		}
	}
	m, err := onnx.Load(filepath.Join(dir, "model.onnx"))
	if err != nil {
		return nil, fmt.Errorf("lcbench: %w", err)
	}
	if in, out := m.Inputs(), m.Outputs(); !slices.Equal(in, []string{"x_cat", "x_cont"}) || len(out) != 1 {
		return nil, fmt.Errorf("lcbench: the model has inputs %q and outputs %q, want x_cat, x_cont and one output", in, out)
	}
	s := &Surrogate{model: m}
	if err := s.readSpace(filepath.Join(dir, "config_space.json")); err != nil {
		return nil, fmt.Errorf("lcbench: %w", err)
	}
	if err := s.readCodes(filepath.Join(dir, "encoding.json")); err != nil {
		return nil, fmt.Errorf("lcbench: %w", err)
	}
	// One evaluation proves the output is as wide as Result.
	if _, err := s.Evaluate(s.tasks[0], s.defaults, MaxEpoch); err != nil {
		return nil, err
	}
	return s, nil
}

// readSpace reads config_space.json (ConfigSpace's JSON): the task ids
// and the seven hyper-parameters with their bounds, scales and defaults.
func (s *Surrogate) readSpace(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var cs struct {
		Hyperparameters []struct {
			Name, Type   string
			Log          bool
			Lower, Upper float64
			Choices      []string
			Default      any
		}
	}
	if err := json.Unmarshal(b, &cs); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	params := make([]space.Param, len(names))
	def := make([]float64, len(names))
	found := 0
	for _, h := range cs.Hyperparameters {
		if h.Name == "OpenML_task_id" {
			s.tasks = h.Choices
			continue
		}
		i := slices.Index(names, h.Name)
		if i < 0 {
			continue // the epoch: the fidelity, not a hyper-parameter
		}
		kind := space.Float
		if h.Type == "uniform_int" {
			kind = space.Int
		} else if h.Type != "uniform_float" {
			return fmt.Errorf("%s: %s is of type %q, want uniform_int or uniform_float", path, h.Name, h.Type)
		}
		d, ok := h.Default.(float64)
		if !ok {
			return fmt.Errorf("%s: %s has default %v, want a number", path, h.Name, h.Default)
		}
		params[i] = space.Param{Name: h.Name, Kind: kind, Low: tidy(h.Lower), High: tidy(h.Upper), Log: h.Log}
		def[i] = d
		found++
	}
	if found != len(names) || len(s.tasks) == 0 {
		return fmt.Errorf("%s: want OpenML_task_id and the hyper-parameters %q", path, names)
	}
	if s.space, err = space.New(params...); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	a := space.Assignment{}
	for i, p := range params {
		if p.Kind == space.Int {
			a[p.Name] = int(def[i])
		} else {
			a[p.Name] = def[i]
		}
	}
	s.defaults, err = ConfigOf(a)
	return err
}

// tidy rounds v to 15 significant digits. ConfigSpace writes log-scale
// bounds after a round trip through exp(log(·)), learning_rate's as
// 0.00010000000000000009 and 0.10000000000000002; rounding recovers the
// intended 1e-4 and 0.1, so that a configuration at the documented bound
// is legal.
func tidy(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	return r
}

// readCodes reads encoding.json: the integer code of each task that the
// model's embedding is indexed by.
func (s *Surrogate) readCodes(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var enc map[string]map[string]int32
	if err := json.Unmarshal(b, &enc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s.codes = enc["OpenML_task_id"]
	for _, t := range s.tasks {
		if _, ok := s.codes[t]; !ok {
			return fmt.Errorf("%s: task %s of config_space.json has no code", path, t)
		}
	}
	return nil
}

// code returns the model's code of task. encoding.json also codes a task
// that config_space.json leaves out (167083) and "#na#"; neither is a task.
func (s *Surrogate) code(task string) (int32, error) {
	if !slices.Contains(s.tasks, task) {
		return 0, fmt.Errorf("lcbench: unknown task %q; the tasks are the OpenML task ids %q", task, s.tasks)
	}
	return s.codes[task], nil
}

// Tasks returns the OpenML task ids, in config_space.json's order.
func (s *Surrogate) Tasks() []string { return slices.Clone(s.tasks) }

// Space returns the search space of the seven hyper-parameters (the task
// and the epoch are not in it), with config_space.json's bounds and scales.
func (s *Surrogate) Space() *space.Space { return s.space }

// Default returns config_space.json's default configuration.
func (s *Surrogate) Default() Config { return s.defaults }

// Evaluate predicts configuration cfg on task at one epoch.
func (s *Surrogate) Evaluate(task string, cfg Config, epoch int) (Result, error) {
	r, err := s.EvaluateBatch(task, []Config{cfg}, []int{epoch})
	if err != nil {
		return Result{}, err
	}
	return r[0], nil
}

// Curve predicts the whole learning curve of cfg on task in one run of
// the network: element e−1 is epoch e, for e from MinEpoch to MaxEpoch.
func (s *Surrogate) Curve(task string, cfg Config) ([]Result, error) {
	cfgs := make([]Config, MaxEpoch-MinEpoch+1)
	epochs := make([]int, len(cfgs))
	for i := range cfgs {
		cfgs[i], epochs[i] = cfg, MinEpoch+i
	}
	return s.EvaluateBatch(task, cfgs, epochs)
}

// EvaluateBatch predicts configuration cfgs[i] at epochs[i], all on task,
// in one run of the network.
func (s *Surrogate) EvaluateBatch(task string, cfgs []Config, epochs []int) ([]Result, error) {
	code, err := s.code(task)
	if err != nil {
		return nil, err
	}
	if len(cfgs) != len(epochs) || len(cfgs) == 0 {
		return nil, fmt.Errorf("lcbench: %d configurations and %d epochs, want as many of each and at least one", len(cfgs), len(epochs))
	}
	n, w := len(cfgs), len(names)+1
	xCat := make([]int32, n)
	xCont := make([]float32, 0, n*w)
	for i, c := range cfgs {
		if epochs[i] < MinEpoch || epochs[i] > MaxEpoch {
			return nil, fmt.Errorf("lcbench: epoch %d is outside %d..%d", epochs[i], MinEpoch, MaxEpoch)
		}
		if i == 0 || c != cfgs[i-1] { // a curve repeats one configuration
			if err := s.space.Validate(c.Assignment()); err != nil {
				return nil, fmt.Errorf("lcbench: %+v: %w", c, err)
			}
		}
		xCat[i] = code
		// float32, as YAHPO casts them [reference code: slds-lmu/yahpo_gym].
		xCont = append(xCont, float32(epochs[i]))
		for _, v := range c.values() {
			xCont = append(xCont, float32(v))
		}
	}
	out, err := s.model.Run(map[string]*onnx.Tensor{
		"x_cat":  onnx.NewInt32([]int{n, 1}, xCat),
		"x_cont": onnx.NewFloat32([]int{n, w}, xCont),
	})
	if err != nil {
		return nil, fmt.Errorf("lcbench: %w", err)
	}
	y := out[s.model.Outputs()[0]]
	if y.Type != onnx.Float32 || !slices.Equal(y.Shape, []int{n, 6}) {
		return nil, fmt.Errorf("lcbench: the model's output is %s%v, want float32[%d 6]", y.Type, y.Shape, n)
	}
	res := make([]Result, n)
	for i := range res {
		r := y.Float[6*i : 6*i+6]
		res[i] = Result{
			Time: float64(r[0]), ValAccuracy: float64(r[1]), ValCrossEntropy: float64(r[2]),
			ValBalancedAccuracy: float64(r[3]), TestCrossEntropy: float64(r[4]), TestBalancedAccuracy: float64(r[5]),
		}
	}
	return res, nil
}
