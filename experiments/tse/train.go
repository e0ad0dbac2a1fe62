package tse

import (
	"math"
	"math/rand/v2"
	"time"
)

// Config is the training set-up shared by every architecture, as the
// thesis requires [000 §8.4]: minibatch SGD with momentum, cosine decay.
type Config struct {
	Width    int     // features per node (32)
	Cells    int     // stacked cells (3)
	Epochs   int     // T_end
	Batch    int     // minibatch size (64)
	LR       float64 // initial learning rate (0.05)
	Momentum float64 // 0.9
}

// DefaultConfig is spec §8's set-up with T_end = 50 epochs (digits).
func DefaultConfig() Config {
	return Config{Width: 32, Cells: 3, Epochs: 50, Batch: 64, LR: 0.05, Momentum: 0.9}
}

// Epoch is one epoch's record (spec §1's learning-curve record).
type Epoch struct {
	BatchLoss []float64 // mean loss of each minibatch, in order, before its update
	TrainLoss float64   // L_t: the mean of BatchLoss
	ValLoss   float64   // mean validation loss after the epoch
	ValAcc    float64
}

// Run is one training run of one architecture with one seed.
type Run struct {
	Epochs   []Epoch
	TestLoss float64
	TestAcc  float64 // after the last epoch
	Seconds  float64 // wall time of the run
}

// Train trains a on sp.Train under cfg. The run depends on (a, seed) only.
// Weights come from the PCG stream (seed, 1) and the per-epoch shuffles
// from the stream (seed, 2): the shuffles thus depend on the seed alone,
// and every architecture of one seed sees the same minibatches in the same
// order, which is what makes TLmini's per-minibatch comparison meaningful.
func Train(a Arch, sp *Split, cfg Config, seed uint64) Run {
	start := time.Now()
	sh := Shape{In: Pixels, Width: cfg.Width, Classes: Classes, Cells: cfg.Cells, Rows: cfg.Batch}
	n := NewNet(a, sh, rand.New(rand.NewPCG(seed, 1)))
	shuf := rand.New(rand.NewPCG(seed, 2))
	vel := make([]float64, len(n.params))
	ntr := sp.Train.Len()
	perm := make([]int, ntr)
	for i := range perm {
		perm[i] = i
	}
	y := make([]int, cfg.Batch)
	nb := (ntr + cfg.Batch - 1) / cfg.Batch // the last batch may be short
	steps := float64(cfg.Epochs * nb)
	run := Run{Epochs: make([]Epoch, cfg.Epochs)}
	for t := range cfg.Epochs {
		shuf.Shuffle(ntr, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		ep := Epoch{BatchLoss: make([]float64, nb)}
		for b := range nb {
			rows := min(cfg.Batch, ntr-b*cfg.Batch)
			for r := range rows {
				i := perm[b*cfg.Batch+r]
				copy(n.X[r*Pixels:(r+1)*Pixels], sp.Train.X[i*Pixels:(i+1)*Pixels])
				y[r] = sp.Train.Y[i]
			}
			n.Forward(rows)
			sum, _ := n.Loss(y, rows)
			ep.BatchLoss[b] = sum / float64(rows)
			clear(n.grads)
			n.Backward(rows)
			// Cosine decay per step, from LR at the first step towards 0 at
			// T_end, so the schedule is smooth within an epoch.
			lr := cfg.LR * 0.5 * (1 + math.Cos(math.Pi*float64(t*nb+b)/steps))
			for k, g := range n.grads {
				vel[k] = cfg.Momentum*vel[k] + g
				n.params[k] -= lr * vel[k]
			}
		}
		var s float64
		for _, l := range ep.BatchLoss {
			s += l
		}
		ep.TrainLoss = s / float64(nb)
		ep.ValLoss, ep.ValAcc = n.Evaluate(&sp.Val)
		run.Epochs[t] = ep
	}
	run.TestLoss, run.TestAcc = n.Evaluate(&sp.Test)
	run.Seconds = time.Since(start).Seconds()
	return run
}

// Evaluate is the mean loss and the accuracy of the network on d, in
// chunks of the network's row capacity.
func (n *Net) Evaluate(d *Data) (loss, acc float64) {
	var sum float64
	correct := 0
	for lo := 0; lo < d.Len(); lo += n.sh.Rows {
		rows := min(n.sh.Rows, d.Len()-lo)
		copy(n.X, d.X[lo*Pixels:(lo+rows)*Pixels])
		n.Forward(rows)
		s, c := n.Loss(d.Y[lo:lo+rows], rows)
		sum += s
		correct += c
	}
	return sum / float64(d.Len()), float64(correct) / float64(d.Len())
}
