package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/tinyml"
)

func small(filters, units int) tinyml.Network {
	return tinyml.Network{Input: [3]int{90, 3, 1}, Layers: []tinyml.Layer{
		{Type: tinyml.Conv2D, Filters: filters, Kernel: tinyml.Size{2, 2}, Activation: "relu"},
		{Type: tinyml.MaxPool2D, Pool: tinyml.Size{2, 2}},
		{Type: tinyml.Dropout, Rate: 0.2},
		{Type: tinyml.Flatten},
		{Type: tinyml.Dense, Units: units, Activation: "relu"},
		{Type: tinyml.Dense, Units: 6, Activation: "softmax"},
	}}
}

// TestGradients: the backward pass matches finite differences of the
// loss, on a tiny network with every layer type, both paddings and every
// activation, on a batch of three examples, with dropout off and on (the same mask in every pass: a
// freshly seeded generator each time).
func TestGradients(t *testing.T) {
	for _, c := range []struct {
		a    string
		rate float64
	}{{"relu", 0}, {"sigmoid", 0}, {"tanh", 0}, {"selu", 0}, {"linear", 0}, {"", 0}, {"relu", 0.4}, {"tanh", 0.4}} {
		a := c.a
		n := tinyml.Network{Input: [3]int{6, 5, 2}, Layers: []tinyml.Layer{
			{Type: tinyml.Conv2D, Filters: 3, Kernel: tinyml.Size{3, 2}, Padding: "same", Activation: a},
			{Type: tinyml.Conv2D, Filters: 2, Kernel: tinyml.Size{2, 2}, Activation: a},
			{Type: tinyml.MaxPool2D, Pool: tinyml.Size{2, 2}},
			{Type: tinyml.Flatten},
			{Type: tinyml.Dense, Units: 4, Activation: a},
			{Type: tinyml.Dropout, Rate: c.rate},
			{Type: tinyml.Dense, Units: 3},
		}}
		net, err := Build(n, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		x, y := make([]float64, 3*6*5*2), []int{1, 0, 2} // a batch of three
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		mask := func() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
		clear(net.grads)
		net.step(x, y, mask())
		loss := func() float64 {
			p, l := net.forward(x, len(y), true, mask()), 0.0
			for e, c := range y {
				l -= math.Log(p[e*3+c])
			}
			return l
		}
		worst := 0.0
		for i := range net.params {
			p := net.params[i]
			net.params[i] = p + 1e-6
			up := loss()
			net.params[i] = p - 1e-6
			down := loss()
			net.params[i] = p
			num := (up - down) / 2e-6
			worst = max(worst, math.Abs(num-net.grads[i])/max(1e-4, math.Abs(num)+math.Abs(net.grads[i])))
		}
		if worst > 1e-4 {
			t.Errorf("%q, dropout %v: worst relative gradient error %.2g", a, c.rate, worst)
		}
	}
}

// TestLearns: three epochs of a small CNN with Adam get well above chance
// on both tasks, and the same seed gives the same accuracies.
func TestLearns(t *testing.T) {
	har := HARLike(1)
	acc, err := Fit(small(16, 32), "adam", har.Train, har.Val, Config{}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Fit(small(16, 32), "adam", har.Train, har.Val, Config{}, 1, nil)
	t.Logf("HAR-like, 16 filters, 32 units, adam: validation accuracy %.1f %%", acc)
	if len(acc) != 3 || !(acc[2] > 60) || acc[2] >= 100 {
		t.Errorf("HAR-like validation accuracy %v, want three epochs ending above 60 %% and below 100 %%", acc)
	}
	for i := range acc {
		if acc[i] != again[i] {
			t.Errorf("not deterministic: %v, %v", acc, again)
		}
	}
	fill := FillLevel(1)
	cnn := tinyml.Network{Input: [3]int{32, 32, 3}, Layers: []tinyml.Layer{
		{Type: tinyml.Conv2D, Filters: 8, Kernel: tinyml.Size{3, 3}, Activation: "relu"},
		{Type: tinyml.MaxPool2D, Pool: tinyml.Size{4, 4}},
		{Type: tinyml.Flatten},
		{Type: tinyml.Dense, Units: 16, Activation: "relu"},
		{Type: tinyml.Dense, Units: 4, Activation: "softmax"},
	}}
	acc, err = Fit(cnn, "adam", fill.Train, fill.Val, Config{Epochs: 2}, 1, nil)
	t.Logf("fill level, 8 filters: validation accuracy %.1f %%", acc)
	if err != nil || !(acc[1] > 60) {
		t.Errorf("fill-level validation accuracy %v, %v; want above 60 %%", acc, err)
	}
}

// TestStop: Fit stops when its callback says so.
func TestStop(t *testing.T) {
	har := HARLike(2)
	acc, err := Fit(small(4, 8), "sgd", har.Train, har.Val, Config{Epochs: 5}, 1, func(e int, _ float64) bool { return e == 2 })
	if err != nil || len(acc) != 2 {
		t.Errorf("stopped after epoch 2: %v, %v", acc, err)
	}
}

// TestErrors: an unknown optimiser, an output layer that does not match
// the classes, a network that is not computable, and a network for
// another input are refused.
func TestErrors(t *testing.T) {
	har := HARLike(1)
	cases := map[string]func() error{
		`optimizer "lion": unknown`: func() error {
			_, err := Fit(small(4, 8), "lion", har.Train, har.Val, Config{Epochs: 1}, 1, nil)
			return err
		},
		"the output layer has 4 units": func() error {
			n := small(4, 8)
			n.Layers[5].Units = 4
			_, err := Fit(n, "adam", har.Train, har.Val, Config{Epochs: 1}, 1, nil)
			return err
		},
		"not computable": func() error {
			n := small(4, 8)
			n.Layers[0].Kernel = tinyml.Size{2, 4}
			_, err := Build(n, 6, 1)
			return err
		},
		"is not the data's shape": func() error {
			_, err := Fit(tinyml.IRBaseline(), "adam", har.Train, har.Val, Config{Epochs: 1}, 1, nil)
			return err
		},
	}
	for want, f := range cases {
		if err := f(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want an error containing %q", err, want)
		}
	}
}

// TestOptimizers: every optimiser trains without error.
func TestOptimizers(t *testing.T) {
	har := HARLike(3)
	sub := Data{X: har.Train.X[:200*270], Y: har.Train.Y[:200], Shape: har.Train.Shape, Classes: 6}
	for _, o := range Optimizers {
		acc, err := Fit(small(4, 8), o, sub, har.Val, Config{Epochs: 1}, 1, nil)
		if err != nil || len(acc) != 1 {
			t.Errorf("%s: %v, %v", o, acc, err)
		}
		t.Logf("%s: %.1f %% after one epoch of 200", o, acc[0])
	}
}

func BenchmarkEpochHARBaseline(b *testing.B) {
	har := HARLike(1)
	for b.Loop() {
		if _, err := Fit(tinyml.HARBaseline(), "adam", har.Train, Data{}, Config{Epochs: 1}, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEpochHARSmall(b *testing.B) {
	har := HARLike(1)
	for b.Loop() {
		if _, err := Fit(small(16, 32), "adam", har.Train, Data{}, Config{Epochs: 1}, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTrainPredict: Train gives the network Fit trains (the same accuracy
// on the validation set for the same seed), and Predict gives one
// example's probabilities: they sum to 1, their argmax agrees with
// Accuracy, and a second call gives the same.
func TestTrainPredict(t *testing.T) {
	har := HARLike(4)
	cfg := Config{Epochs: 2}
	acc, err := Fit(small(4, 8), "adam", har.Train, har.Val, cfg, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	net, err := Train(small(4, 8), "adam", har.Train, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := net.Accuracy(har.Val); got != acc[1] {
		t.Errorf("Train then Accuracy: %v %%, Fit: %v %%", got, acc[1])
	}
	right := 0
	for i := range har.Val.Len() {
		p := net.Predict(har.Val.example(i))
		sum, best := 0.0, 0
		for j, v := range p {
			sum += v
			if v > p[best] {
				best = j
			}
		}
		if len(p) != 6 || math.Abs(sum-1) > 1e-12 {
			t.Fatalf("example %d: probabilities %v", i, p)
		}
		if best == har.Val.Y[i] {
			right++
		}
		if i == 0 {
			if q := net.Predict(har.Val.example(0)); !slices.Equal(p, q) {
				t.Errorf("Predict twice: %v, %v", p, q)
			}
		}
	}
	if got := 100 * float64(right) / float64(har.Val.Len()); got != acc[1] {
		t.Errorf("Predict's argmax: %v %% right, Accuracy %v %%", got, acc[1])
	}
	if _, err := Train(small(4, 8), "lion", har.Train, cfg, 5); err == nil {
		t.Error("an unknown optimiser trained")
	}
}
