package train

import (
	"fmt"
	"math"
	"strings"
)

// Optimizers are the optimisers Fit knows, with Keras 2's defaults (Tables
// 7.3 and 7.6 list the first five).
var Optimizers = []string{"adam", "sgd", "rmsprop", "adadelta", "adamax", "adagrad"}

// optimizer updates the parameters from the mean gradient of a batch.
type optimizer struct {
	name string
	t    int
	m, v []float64 // first and second moments, or accumulators
}

func newOptimizer(name string, n int) (*optimizer, error) {
	o := &optimizer{name: strings.ToLower(name)}
	if o.name == "" {
		o.name = "adam"
	}
	switch o.name {
	case "sgd":
	case "adam", "adamax", "adadelta":
		o.m, o.v = make([]float64, n), make([]float64, n)
	case "rmsprop":
		o.v = make([]float64, n)
	case "adagrad":
		o.v = make([]float64, n)
		for i := range o.v {
			o.v[i] = 0.1 // Keras's initial_accumulator_value
		}
	default:
		return nil, fmt.Errorf("optimizer %q: unknown (known: %s)", name, strings.Join(Optimizers, ", "))
	}
	return o, nil
}

// Keras 2's defaults.
const (
	eps    = 1e-7
	beta1  = 0.9
	beta2  = 0.999
	rhoRMS = 0.9
	rhoAD  = 0.95
)

func (o *optimizer) update(p, g []float64) {
	o.t++
	switch o.name {
	case "sgd":
		for i := range p {
			p[i] -= 0.01 * g[i]
		}
	case "adam":
		lr := 1e-3 * math.Sqrt(1-math.Pow(beta2, float64(o.t))) / (1 - math.Pow(beta1, float64(o.t)))
		for i := range p {
			o.m[i] = beta1*o.m[i] + (1-beta1)*g[i]
			o.v[i] = beta2*o.v[i] + (1-beta2)*g[i]*g[i]
			p[i] -= lr * o.m[i] / (math.Sqrt(o.v[i]) + eps)
		}
	case "adamax":
		lr := 1e-3 / (1 - math.Pow(beta1, float64(o.t)))
		for i := range p {
			o.m[i] = beta1*o.m[i] + (1-beta1)*g[i]
			o.v[i] = max(beta2*o.v[i], math.Abs(g[i]))
			p[i] -= lr * o.m[i] / (o.v[i] + eps)
		}
	case "rmsprop":
		for i := range p {
			o.v[i] = rhoRMS*o.v[i] + (1-rhoRMS)*g[i]*g[i]
			p[i] -= 1e-3 * g[i] / (math.Sqrt(o.v[i]) + eps)
		}
	case "adagrad":
		for i := range p {
			o.v[i] += g[i] * g[i]
			p[i] -= 1e-3 * g[i] / (math.Sqrt(o.v[i]) + eps)
		}
	case "adadelta": // m: the squared updates' average, v: the squared gradients'
		for i := range p {
			o.v[i] = rhoAD*o.v[i] + (1-rhoAD)*g[i]*g[i]
			d := math.Sqrt(o.m[i]+eps) / math.Sqrt(o.v[i]+eps) * g[i]
			o.m[i] = rhoAD*o.m[i] + (1-rhoAD)*d*d
			p[i] -= 1e-3 * d
		}
	}
}
