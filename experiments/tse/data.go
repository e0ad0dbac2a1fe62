package tse

import (
	"math/rand/v2"

	"github.com/boaopt/boa/datasets"
)

// EnvDigits overrides where the digits are read (datasets.DigitsPath).
const EnvDigits = datasets.EnvDigits

// Pixels and Classes are the shape of the digits data: 8×8 images with
// grey levels 0..16 and the ten digits.
const (
	Pixels  = datasets.DigitsPixels
	Classes = datasets.DigitsClasses
)

// Data is a labelled set: row i is X[i*Pixels:(i+1)*Pixels], scaled to
// [0, 1], with label Y[i] in 0..Classes−1.
type Data struct {
	X []float64
	Y []int
}

// Len is the number of rows.
func (d *Data) Len() int { return len(d.Y) }

// DigitsPath is the digits file to read: $BOA_DIGITS, else the data
// beside the repository (datasets.DigitsPath).
func DigitsPath() string { return datasets.DigitsPath() }

// LoadDigits reads sklearn's digits.csv.gz with the pixels scaled to
// [0, 1], so that the input layer's He initialisation sees inputs of unit
// order (datasets.LoadDigits).
func LoadDigits(path string) (Data, error) {
	x, y, err := datasets.LoadDigits(path)
	return Data{X: x, Y: y}, err
}

// Split is the fixed train / validation / test partition of one data set.
type Split struct{ Train, Val, Test Data }

// SplitSeed fixes the partition used by the experiment.
const SplitSeed = 20210604

// StratifiedSplit partitions d class by class: each class's rows are
// shuffled with a PCG source seeded by seed, and its first round(ftrain·n)
// go to training, the next round(fval·n) to validation and the rest to
// test, so every part keeps the class proportions. Rows keep their file
// order within a part.
func StratifiedSplit(d Data, seed uint64, ftrain, fval float64) Split {
	r := rand.New(rand.NewPCG(seed, 0x5b117))
	byClass := make([][]int, Classes)
	for i, y := range d.Y {
		byClass[y] = append(byClass[y], i)
	}
	part := make([]int, d.Len()) // 0 train, 1 validation, 2 test
	for _, idx := range byClass {
		r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		ntr := int(ftrain*float64(len(idx)) + 0.5)
		nva := int(fval*float64(len(idx)) + 0.5)
		for k, i := range idx {
			switch {
			case k < ntr:
				part[i] = 0
			case k < ntr+nva:
				part[i] = 1
			default:
				part[i] = 2
			}
		}
	}
	var sp Split
	dst := [3]*Data{&sp.Train, &sp.Val, &sp.Test}
	for i, p := range part {
		dst[p].X = append(dst[p].X, d.X[i*Pixels:(i+1)*Pixels]...)
		dst[p].Y = append(dst[p].Y, d.Y[i])
	}
	return sp
}
