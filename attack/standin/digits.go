package standin

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/datasets"
	"github.com/boaopt/boa/tinyml"
	"github.com/boaopt/boa/tinyml/train"
)

// EnvDigits overrides where the digits are read (datasets.DigitsPath).
const EnvDigits = datasets.EnvDigits

const (
	digitsSide    = datasets.DigitsSide
	digitsPixels  = datasets.DigitsPixels
	digitsClasses = datasets.DigitsClasses
	digitsTrain   = 0.7  // the share of each class that trains
	digitsEpochs  = 30   // passes of Adam, batches of 32
	splitStream   = 0xd1 // the PCG stream of the split
)

// DigitsNetwork is the digits victim's network: a 3×3 convolution of 16
// filters (same padding, relu), 2×2 max pooling, a dense layer of 64
// relu units and 10 softmax outputs.
func DigitsNetwork() tinyml.Network {
	return tinyml.Network{Input: [3]int{digitsSide, digitsSide, 1}, Layers: []tinyml.Layer{
		{Type: tinyml.Conv2D, Filters: 16, Kernel: tinyml.Size{3, 3}, Padding: "same", Activation: "relu"},
		{Type: tinyml.MaxPool2D, Pool: tinyml.Size{2, 2}},
		{Type: tinyml.Flatten},
		{Type: tinyml.Dense, Units: 64, Activation: "relu"},
		{Type: tinyml.Dense, Units: digitsClasses, Activation: "softmax"},
	}}
}

// ImageExample is a held-out image and its true class.
type ImageExample struct {
	Image attack.Image
	Label int
}

// Digits is the image stand-in of spec §3: DigitsNetwork trained by
// tinyml/train on 70 % of sklearn's digits. It implements
// attack.Victim[attack.Image] and is safe for concurrent use (queries
// take turns).
type Digits struct {
	mu   sync.Mutex
	net  *train.Net
	acc  float64
	test []ImageExample
}

// DigitsPath is the digits file TrainDigits reads: $BOA_DIGITS, else the
// data beside the repository (datasets.DigitsPath).
func DigitsPath() string { return datasets.DigitsPath() }

// TrainDigits reads the digits (DigitsPath), splits them 70/30 class by
// class with seed, and trains the victim with seed. A missing file is an
// error that says where it looked.
func TrainDigits(seed uint64) (*Digits, error) {
	path := DigitsPath()
	x, y, err := datasets.LoadDigits(path)
	if err != nil {
		return nil, err
	}
	tr, te := stratified(x, y, seed)
	net, err := train.Train(DigitsNetwork(), "adam", tr, train.Config{Epochs: digitsEpochs}, seed)
	if err != nil {
		return nil, err
	}
	d := &Digits{net: net, acc: net.Accuracy(te) / 100}
	for i, c := range te.Y {
		pix := te.X[i*digitsPixels : (i+1)*digitsPixels]
		d.test = append(d.test, ImageExample{Image: attack.Image{H: digitsSide, W: digitsSide, C: 1, Pix: pix}, Label: c})
	}
	return d, nil
}

// Scores returns the victim's softmax probabilities of the ten digits for
// an 8×8×1 image with values in [0, 1]; any other image is an error.
func (d *Digits) Scores(x attack.Image) ([]float64, error) {
	if x.H != digitsSide || x.W != digitsSide || x.C != 1 {
		return nil, fmt.Errorf("digits victim: a %d×%d×%d image, want 8×8×1", x.H, x.W, x.C)
	}
	if err := x.Check(); err != nil {
		return nil, fmt.Errorf("digits victim: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.net.Predict(x.Pix), nil
}

// Accuracy is the share of the held-out images classified right, in [0, 1].
func (d *Digits) Accuracy() float64 { return d.acc }

// Test returns the held-out images (30 % of each class), as copies.
func (d *Digits) Test() []ImageExample {
	out := make([]ImageExample, len(d.test))
	for i, e := range d.test {
		out[i] = ImageExample{Image: e.Image.Clone(), Label: e.Label}
	}
	return out
}

// stratified splits the images class by class: each class's rows are
// shuffled by seed and the first round(0.7·n) train, the rest test. Rows
// keep their file order within each part.
func stratified(x []float64, y []int, seed uint64) (tr, te train.Data) {
	rng := rand.New(rand.NewPCG(seed, splitStream))
	byClass := make([][]int, digitsClasses)
	for i, c := range y {
		byClass[c] = append(byClass[c], i)
	}
	isTrain := make([]bool, len(y))
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		for _, i := range rows[:int(digitsTrain*float64(len(rows))+0.5)] {
			isTrain[i] = true
		}
	}
	tr = train.Data{Shape: [3]int{digitsSide, digitsSide, 1}, Classes: digitsClasses}
	te = tr
	for i, c := range y {
		dst := &te
		if isTrain[i] {
			dst = &tr
		}
		dst.X = append(dst.X, x[i*digitsPixels:(i+1)*digitsPixels]...)
		dst.Y = append(dst.Y, c)
	}
	return tr, te
}
