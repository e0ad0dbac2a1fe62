package tinyml

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
)

// The analytic accuracy proxy's constants (spec constrained-autotinyml
// §5.7 stand-in b gives its form, not its numbers; Decision, chosen so
// that the HAR baseline scores about 94 % and the smallest networks of
// the Tiny-board space 5–10 points less, the spread of Tables 8.2–8.3):
// acc = proxyMax − proxyScale·exp(−capacity/proxyCapacity) − penalties +
// N(0, proxyNoise²), capacity = log(params) + ½ log(MACC), in %.
const (
	proxyMax      = 95.0
	proxyScale    = 40.0
	proxyCapacity = 5.0
	proxyNoise    = 0.3
	proxyDropout  = 2.0  // % per unit of |rate − 0.2|
	proxyLag      = 10.0 // ProxyAt: points below the final value after one epoch of many
)

// Penalties in accuracy points of an activation (the worst hidden layer's)
// and of an optimiser with Keras's default settings.
var (
	activationPenalty = map[string]float64{"relu": 0, "selu": 0.3, "tanh": 0.5, "sigmoid": 1.5, "linear": 3, "": 0}
	optimizerPenalty  = map[string]float64{"adam": 0, "adamax": 0.2, "rmsprop": 0.3, "sgd": 1.0, "adagrad": 1.0, "adadelta": 2.0}
)

// Optimizers are the optimisers Proxy knows (Tables 7.3 and 7.6).
var Optimizers = []string{"adam", "sgd", "rmsprop", "adadelta", "adamax", "adagrad"}

// Proxy is the analytic accuracy proxy of spec §5.7 (stand-in b), in %:
// a network's test accuracy as a function of its capacity, its
// activations, its dropout and its optimiser, with seeded noise, for
// searches that run in milliseconds (CI, the 15-run tables). It is not a
// model of any dataset; it makes the accuracy grow with the size that
// the board's limits bound, so that a search has to find the boundary of
// the deployable region. The same network, optimiser and seed give the
// same value.
func Proxy(n Network, optimizer string, seed uint64) (float64, error) {
	return ProxyAt(n, optimizer, seed, 1, 1)
}

// ProxyAt is Proxy's learning curve, for a multi-fidelity search (the
// BOHB-like baseline of spec §6, whose Hyperband runs over epochs): the
// accuracy after epoch of epochs, in %. It is Proxy's value at the last
// epoch and below it by proxyLag·(1 + the optimiser's penalty)·(1/epoch −
// 1/epochs) points before, with the noise drawn afresh at each epoch, so
// that early values rank networks nearly as the final ones do but the
// slow optimisers (SGD, Adadelta, Adagrad) look worse early than they
// end. Stand-in b has no epochs; the curve is a Decision, not a model of
// any training.
func ProxyAt(n Network, optimizer string, seed uint64, epoch, epochs int) (float64, error) {
	if epoch < 1 || epoch > epochs {
		return 0, fmt.Errorf("epoch %d of %d: want 1 ≤ epoch ≤ epochs", epoch, epochs)
	}
	opt := strings.ToLower(optimizer)
	if opt == "" {
		opt = "adam"
	}
	pen, ok := optimizerPenalty[opt]
	if !ok {
		return 0, fmt.Errorf("optimizer %q: unknown (known: %s)", optimizer, strings.Join(Optimizers, ", "))
	}
	r, err := Analyze(n, 1)
	if err != nil {
		return 0, err
	}
	worst, rates, dropouts := 0.0, 0.0, 0
	for i, l := range n.Layers {
		switch {
		case l.Type == Dropout:
			rates += l.Rate
			dropouts++
		case l.Type == Conv2D || l.Type == Dense && i != lastDenseIndex(n):
			worst = max(worst, activationPenalty[strings.ToLower(l.Activation)])
		}
	}
	pen += worst
	if dropouts > 0 {
		pen += proxyDropout * math.Abs(rates/float64(dropouts)-0.2)
	}
	capacity := math.Log(float64(r.Params)) + 0.5*math.Log(float64(max(r.MACC, 1)))
	key, _ := json.Marshal(n)
	h := fnv.New64a()
	h.Write(key)
	h.Write([]byte(opt))
	lag := 0.0
	if epoch < epochs {
		fmt.Fprint(h, epoch) // a fresh draw for each epoch before the last
		lag = proxyLag * (1 + optimizerPenalty[opt]) * (1/float64(epoch) - 1/float64(epochs))
	}
	noise := rand.New(rand.NewPCG(seed, h.Sum64())).NormFloat64() * proxyNoise
	return proxyMax - proxyScale*math.Exp(-capacity/proxyCapacity) - pen - lag + noise, nil
}

func lastDenseIndex(n Network) int {
	last := -1
	for i, l := range n.Layers {
		if l.Type == Dense {
			last = i
		}
	}
	return last
}
