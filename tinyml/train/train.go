package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/tinyml"
)

// Config is a training's length: Epochs passes over the training set in
// batches of Batch examples; zero values mean 3 and 32 (spec §5.7's
// Decision).
type Config struct {
	Epochs int
	Batch  int
}

func (c Config) orDefaults() Config {
	if c.Epochs < 1 {
		c.Epochs = 3
	}
	if c.Batch < 1 {
		c.Batch = 32
	}
	return c
}

// Fit trains n with optimizer on train for cfg.Epochs, shuffling the
// examples each epoch, and returns the validation accuracy in % after
// each epoch. After each one it calls epoch, when not nil, with that
// accuracy; a true return stops the training (a pruned trial). seed draws
// the initial weights, the order and the dropout masks.
func Fit(n tinyml.Network, optimizer string, train, val Data, cfg Config, seed uint64, epoch func(e int, valAcc float64) (stop bool)) ([]float64, error) {
	net, err := fit(n, optimizer, train, val, cfg, seed, epoch)
	if err != nil {
		return nil, err
	}
	return net.history, nil
}

// Test retrains n on s's training and validation sets together and returns
// its test accuracy in % (hold-out validation during the search, the test
// set only for the final model: spec §5.7).
func Test(n tinyml.Network, optimizer string, s Split, cfg Config, seed uint64) (float64, error) {
	all := Data{X: append(append([]float64(nil), s.Train.X...), s.Val.X...), Y: append(append([]int(nil), s.Train.Y...), s.Val.Y...), Shape: s.Train.Shape, Classes: s.Train.Classes}
	net, err := fit(n, optimizer, all, Data{}, cfg, seed, nil)
	if err != nil {
		return 0, err
	}
	return net.Accuracy(s.Test), nil
}

type trained struct {
	*Net
	history []float64
}

func fit(n tinyml.Network, optimizer string, train, val Data, cfg Config, seed uint64, epoch func(int, float64) bool) (trained, error) {
	cfg = cfg.orDefaults()
	if n.Input != train.Shape {
		return trained{}, fmt.Errorf("network: input %v is not the data's shape %v", n.Input, train.Shape)
	}
	net, err := build(n, train.Classes, seed, cfg.Batch)
	if err != nil {
		return trained{}, err
	}
	opt, err := newOptimizer(optimizer, net.NumParams())
	if err != nil {
		return trained{}, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x7a1))
	order := make([]int, train.Len())
	for i := range order {
		order[i] = i
	}
	ys := make([]int, cfg.Batch)
	out := trained{Net: net}
	for e := 1; e <= cfg.Epochs; e++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for start := 0; start < len(order); start += cfg.Batch {
			batch := order[start:min(start+cfg.Batch, len(order))]
			clear(net.grads)
			x, y := net.x[:len(batch)*net.inSize], ys[:len(batch)]
			for k, i := range batch {
				copy(x[k*net.inSize:(k+1)*net.inSize], train.example(i))
				y[k] = train.Y[i]
			}
			net.step(x, y, rng)
			scale := 1 / float64(len(batch))
			for i := range net.grads {
				net.grads[i] *= scale
			}
			opt.update(net.params, net.grads)
		}
		if val.Len() == 0 {
			continue
		}
		acc := net.Accuracy(val)
		out.history = append(out.history, acc)
		if epoch != nil && epoch(e, acc) {
			break
		}
	}
	return out, nil
}

// Train trains n with optimizer on d as Fit does, without a validation
// set, and returns the trained network, for a caller that wants to use it
// (Predict) rather than score it.
func Train(n tinyml.Network, optimizer string, d Data, cfg Config, seed uint64) (*Net, error) {
	net, err := fit(n, optimizer, d, Data{}, cfg, seed, nil)
	if err != nil {
		return nil, err
	}
	return net.Net, nil
}
