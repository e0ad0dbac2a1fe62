package standin

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/tinyml"
	"github.com/boaopt/boa/tinyml/train"
)

// EnvDigits names the environment variable that gives the path of
// sklearn's digits.csv.gz (as in examples/digits and experiments/tse);
// without it the file is ../shared/data/sklearn-datasets/digits.csv.gz
// beside the module root (the directory of go.mod at or above the working
// directory). The data is third-party and read in place.
const EnvDigits = "BOA_DIGITS"

const (
	digitsRel     = "../shared/data/sklearn-datasets/digits.csv.gz"
	digitsSide    = 8
	digitsPixels  = digitsSide * digitsSide
	digitsClasses = 10
	digitsMax     = 16   // grey levels 0..16
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

// DigitsPath is the digits file TrainDigits reads: $BOA_DIGITS, else
// ../shared/data/sklearn-datasets/digits.csv.gz from the module root
// (the first directory at or above the working directory holding go.mod),
// else that path from the working directory.
func DigitsPath() string {
	if p := os.Getenv(EnvDigits); p != "" {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return digitsRel
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, digitsRel)
		}
		if filepath.Dir(dir) == dir {
			return filepath.Join(wd, digitsRel)
		}
	}
}

// TrainDigits reads the digits (DigitsPath), splits them 70/30 class by
// class with seed, and trains the victim with seed. A missing file is an
// error that says where it looked.
func TrainDigits(seed uint64) (*Digits, error) {
	path := DigitsPath()
	x, y, err := loadDigits(path)
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

// loadDigits reads digits.csv.gz: no header, one image a line, 64 grey
// levels 0..16 row by row, then the digit. Pixels are scaled by 1/16
// into [0, 1].
func loadDigits(path string) (x []float64, y []int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("digits data: %w (set %s to the path of digits.csv.gz, from ../shared/data/sklearn-datasets beside the repository)", err, EnvDigits)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("digits data %s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		fields := strings.Split(s, ",")
		if len(fields) != digitsPixels+1 {
			return nil, nil, fmt.Errorf("digits data %s:%d: %d fields, want %d", path, line, len(fields), digitsPixels+1)
		}
		for _, v := range fields[:digitsPixels] {
			p, err := strconv.Atoi(v)
			if err != nil || p < 0 || p > digitsMax {
				return nil, nil, fmt.Errorf("digits data %s:%d: pixel %q, want 0..16", path, line, v)
			}
			x = append(x, float64(p)/digitsMax)
		}
		c, err := strconv.Atoi(fields[digitsPixels])
		if err != nil || c < 0 || c >= digitsClasses {
			return nil, nil, fmt.Errorf("digits data %s:%d: label %q, want 0..9", path, line, fields[digitsPixels])
		}
		y = append(y, c)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("digits data %s: %w", path, err)
	}
	if len(y) == 0 {
		return nil, nil, fmt.Errorf("digits data %s: no rows", path)
	}
	return x, y, nil
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
