package lcbench_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/problems/lcbench"
	"github.com/boaopt/boa/space"
)

var _ problems.Problem = (*lcbench.Problem)(nil)

var (
	loadOnce sync.Once
	loaded   *lcbench.Surrogate
	loadErr  error
)

// surrogate loads the surrogate once per test binary, or skips the test
// when ../shared/data/yahpo/lcbench is absent.
func surrogate(tb testing.TB) *lcbench.Surrogate {
	tb.Helper()
	loadOnce.Do(func() { loaded, loadErr = lcbench.Load("") })
	if errors.Is(loadErr, lcbench.ErrNoData) {
		tb.Skipf("the LCBench surrogate is absent (%v); these tests need ../shared/data/yahpo/lcbench beside the repository", loadErr)
	}
	if loadErr != nil {
		tb.Fatal(loadErr)
	}
	return loaded
}

// TestCheckValues evaluates task 3945 at config_space.json's defaults.
// The values are those of an independent float64 evaluation of the same
// graph (a throw-away Python script, docs/lcbench.md); the two agree to
// about 1e-5 relative. The spec's check values (40.3, 87.5, 89.5, 90.8,
// 92.0 for val_accuracy) are those of some other configuration: the
// defaults give 38.2, 88.7, 90.7, 91.9, 93.4 (docs/lcbench.md).
func TestCheckValues(t *testing.T) {
	s := surrogate(t)
	def := s.Default()
	if want := (lcbench.Config{BatchSize: 91, LearningRate: 0.0031622777, Momentum: 0.545, WeightDecay: 0.050005, NumLayers: 3, MaxUnits: 256, MaxDropout: 0.5}); def != want {
		t.Errorf("Default() = %+v, want %+v", def, want)
	}
	want := map[int][6]float64{ // time, val_accuracy, val_ce, val_bac, test_ce, test_bac
		1:  {15.9236, 38.195, 0.680328, 0.454226, 0.6852, 0.457833},
		5:  {48.7041, 88.713, 0.517226, 0.625617, 0.603568, 0.615815},
		10: {68.1219, 90.6974, 0.456883, 0.647157, 0.573854, 0.632365},
		20: {90.8196, 91.9354, 0.418018, 0.664121, 0.556705, 0.648561},
		52: {165.689, 93.3988, 0.380098, 0.684497, 0.541495, 0.670152},
	}
	curve, err := s.Curve("3945", def)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []int{1, 5, 10, 20, 52} {
		r, err := s.Evaluate("3945", def, e)
		if err != nil {
			t.Fatal(err)
		}
		got := [6]float64{r.Time, r.ValAccuracy, r.ValCrossEntropy, r.ValBalancedAccuracy, r.TestCrossEntropy, r.TestBalancedAccuracy}
		for i, w := range want[e] {
			if math.Abs(got[i]-w) > 1e-4*math.Max(1, math.Abs(w)) {
				t.Errorf("epoch %d: output %d = %.6g, want %.6g", e, i, got[i], w)
			}
		}
		if curve[e-1] != r {
			t.Errorf("epoch %d: Curve gives %+v, Evaluate %+v", e, curve[e-1], r)
		}
		t.Logf("task 3945, defaults, epoch %2d: val_accuracy %.4f", e, r.ValAccuracy)
	}
}

// TestCurves checks random configurations of several tasks: a curve is
// the same twice, finite, in range, and equals the epochs evaluated one
// by one and in a mixed batch.
func TestCurves(t *testing.T) {
	s := surrogate(t)
	tasks := s.Tasks()
	if len(tasks) != 34 || tasks[0] != "3945" || !slices.Contains(tasks, "189909") || slices.Contains(tasks, "167083") {
		t.Errorf("Tasks() = %q, want config_space.json's 34 tasks", tasks)
	}
	rng := rand.New(rand.NewPCG(43, 52))
	sp := s.Space()
	for _, task := range []string{tasks[0], tasks[7], tasks[20], tasks[33]} {
		for range 3 {
			c, err := lcbench.ConfigOf(sp.Decode(sp.Sample(rng)))
			if err != nil {
				t.Fatal(err)
			}
			a, err := s.Curve(task, c)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := s.Curve(task, c)
			if !slices.Equal(a, b) {
				t.Errorf("task %s, %+v: two curves differ", task, c)
			}
			if len(a) != lcbench.MaxEpoch {
				t.Fatalf("curve of %d epochs, want %d", len(a), lcbench.MaxEpoch)
			}
			for e, r := range a {
				v := []float64{r.Time, r.ValAccuracy, r.ValCrossEntropy, r.ValBalancedAccuracy, r.TestCrossEntropy, r.TestBalancedAccuracy}
				if slices.ContainsFunc(v, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }) {
					t.Errorf("task %s, %+v, epoch %d: %+v is not finite", task, c, e+1, r)
				}
				if r.ValAccuracy < 0 || r.ValAccuracy > 100 || r.ValBalancedAccuracy < 0 || r.ValBalancedAccuracy > 1 || r.TestBalancedAccuracy < 0 || r.TestBalancedAccuracy > 1 {
					t.Errorf("task %s, %+v, epoch %d: %+v out of range", task, c, e+1, r)
				}
			}
			if a[0].Time >= a[len(a)-1].Time {
				t.Errorf("task %s, %+v: time %g after epoch 1, %g after epoch 52", task, c, a[0].Time, a[len(a)-1].Time)
			}
			e := 1 + rng.IntN(lcbench.MaxEpoch)
			if r, err := s.Evaluate(task, c, e); err != nil || r != a[e-1] {
				t.Errorf("task %s, %+v, epoch %d: Evaluate %+v (%v), Curve %+v", task, c, e, r, err, a[e-1])
			}
			// The batch's rows do not interact: another row beside it changes nothing.
			mixed, err := s.EvaluateBatch(task, []lcbench.Config{s.Default(), c}, []int{3, e})
			if err != nil || mixed[1] != a[e-1] {
				t.Errorf("task %s, %+v, epoch %d: in a batch %+v (%v), alone %+v", task, c, e, mixed, err, a[e-1])
			}
		}
	}
}

func TestSpace(t *testing.T) {
	s := surrogate(t)
	want := []space.Param{
		{Name: "batch_size", Kind: space.Int, Low: 16, High: 512, Log: true},
		{Name: "learning_rate", Kind: space.Float, Low: 1e-4, High: 0.1, Log: true},
		{Name: "momentum", Kind: space.Float, Low: 0.1, High: 0.99},
		{Name: "weight_decay", Kind: space.Float, Low: 1e-5, High: 0.1},
		{Name: "num_layers", Kind: space.Int, Low: 1, High: 5},
		{Name: "max_units", Kind: space.Int, Low: 64, High: 1024, Log: true},
		{Name: "max_dropout", Kind: space.Float, Low: 0, High: 1},
	}
	got := s.Space().Params()
	if len(got) != len(want) {
		t.Fatalf("%d parameters, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Kind != w.Kind || g.Low != w.Low || g.High != w.High || g.Log != w.Log {
			t.Errorf("parameter %d = %+v, want %+v", i, g, w)
		}
	}
	// A configuration at the documented bounds is legal.
	lo := lcbench.Config{BatchSize: 16, LearningRate: 1e-4, Momentum: 0.1, WeightDecay: 1e-5, NumLayers: 1, MaxUnits: 64, MaxDropout: 0}
	if _, err := s.Evaluate("3945", lo, 1); err != nil {
		t.Errorf("the lower corner: %v", err)
	}
	c, err := lcbench.ConfigOf(s.Default().Assignment())
	if err != nil || c != s.Default() {
		t.Errorf("ConfigOf(Default().Assignment()) = %+v (%v), want %+v", c, err, s.Default())
	}
}

func TestProblem(t *testing.T) {
	s := surrogate(t)
	p, err := s.Problem("7593")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "lcbench:7593" {
		t.Errorf("Name() = %q", p.Name())
	}
	if _, ok := p.Optimum(); ok {
		t.Error("Optimum() is known")
	}
	a := s.Default().Assignment()
	f, err := p.Evaluate(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := s.Evaluate("7593", s.Default(), lcbench.MaxEpoch)
	if f != 100-r.ValAccuracy {
		t.Errorf("Evaluate = %g, want 100 − %g", f, r.ValAccuracy)
	}
	errs, times, err := p.Curve(a)
	if err != nil || len(errs) != lcbench.MaxEpoch || len(times) != lcbench.MaxEpoch || errs[lcbench.MaxEpoch-1] != f {
		t.Errorf("Curve: %d errors, %d times, last %g (%v), want %d ending in %g", len(errs), len(times), errs[len(errs)-1], err, lcbench.MaxEpoch, f)
	}
	if g, err := p.EvaluateAt(a, 10); err != nil || g != errs[9] {
		t.Errorf("EvaluateAt(10) = %g (%v), want %g", g, err, errs[9])
	}
	if _, err := s.Problem("167083"); err == nil {
		t.Error("Problem(167083): encoding.json codes it but config_space.json has no such task; no error")
	}
}

func TestErrors(t *testing.T) {
	s := surrogate(t)
	def := s.Default()
	for _, tc := range []struct {
		name, task string
		cfg        lcbench.Config
		epoch      int
		want       string
	}{
		{"unknown task", "42", def, 1, "unknown task"},
		{"#na# is no task", "#na#", def, 1, "unknown task"},
		{"epoch 0", "3945", def, 0, "epoch 0"},
		{"epoch 53", "3945", def, 53, "epoch 53"},
		{"batch size too small", "3945", func() lcbench.Config { c := def; c.BatchSize = 8; return c }(), 1, "batch_size"},
		{"NaN dropout", "3945", func() lcbench.Config { c := def; c.MaxDropout = math.NaN(); return c }(), 1, "max_dropout"},
	} {
		if _, err := s.Evaluate(tc.task, tc.cfg, tc.epoch); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	if _, err := s.EvaluateBatch("3945", []lcbench.Config{def}, nil); err == nil {
		t.Error("EvaluateBatch with 1 configuration and no epochs: no error")
	}
	if _, err := lcbench.ConfigOf(space.Assignment{"batch_size": 16}); err == nil {
		t.Error("ConfigOf of an incomplete assignment: no error")
	}
}

func TestLoadMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := lcbench.Load(dir); !errors.Is(err, lcbench.ErrNoData) {
		t.Errorf("Load of an empty folder: %v, want ErrNoData", err)
	}
	t.Setenv(lcbench.DirEnv, dir)
	if _, err := lcbench.Dir(); !errors.Is(err, lcbench.ErrNoData) || !strings.Contains(err.Error(), lcbench.DirEnv) {
		t.Errorf("Dir with %s set to an empty folder: %v, want ErrNoData naming it", lcbench.DirEnv, err)
	}
	// Files that are there but malformed are an error, not missing data.
	bad := filepath.Join(t.TempDir(), "lc")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"model.onnx", "config_space.json", "encoding.json"} {
		if err := os.WriteFile(filepath.Join(bad, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := lcbench.Load(bad); err == nil || errors.Is(err, lcbench.ErrNoData) {
		t.Errorf("Load of malformed files: %v, want an error that is not ErrNoData", err)
	}
}

func BenchmarkCurve(b *testing.B) {
	s := surrogate(b)
	def := s.Default()
	for b.Loop() {
		if _, err := s.Curve("3945", def); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	s := surrogate(b)
	def := s.Default()
	for b.Loop() {
		if _, err := s.Evaluate("3945", def, 52); err != nil {
			b.Fatal(err)
		}
	}
}
