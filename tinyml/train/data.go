package train

import (
	"math"
	"math/rand/v2"
)

// Data is a labelled set: Len examples of Shape = [height, width,
// channels] values each, channels last (Keras's layout), in X one after
// the other, and their classes in Y.
type Data struct {
	X       []float64
	Y       []int
	Shape   [3]int
	Classes int
}

// Len is the number of examples.
func (d Data) Len() int { return len(d.Y) }

func (d Data) example(i int) []float64 {
	n := d.Shape[0] * d.Shape[1] * d.Shape[2]
	return d.X[i*n : (i+1)*n]
}

// Split is a training, a validation and a test set of the same task.
type Split struct{ Train, Val, Test Data }

// The sizes of spec §5.7.
const (
	trainSize = 2000
	valSize   = 500
	testSize  = 500
)

// The generators' constants (a Decision: the spec gives the form only),
// chosen so that a small network learns the task well above chance in
// three epochs and none is perfect: the classes' patterns overlap and
// every example has its own phase, jitter and noise.
const (
	harWindow    = 90   // samples per window
	harClasses   = 6    //
	harNoise     = 0.6  // σ of the Gaussian noise on each sample
	harJitter    = 0.15 // relative jitter of an example's frequency and amplitude
	fillSide     = 32   // image height and width
	fillNoise    = 0.25 // σ of the pixel noise
	fillLineJit  = 3    // rows the fill line moves, ±
	fillContrast = 0.35 // mean brightness of the liquid over the background
)

// HARLike is the HAR-like task of spec §5.7: windows of 90 samples of a
// three-axis accelerometer ([90, 3, 1]), 6 activities. Each activity has
// its own frequency, amplitude and offset per axis (fixed: they define
// the task); each window draws its phase, a jitter of its frequency and
// amplitude and Gaussian noise from seed.
func HARLike(seed uint64) Split {
	pat := rand.New(rand.NewPCG(0x4a52, 6))
	var freq, amp, off [harClasses][3]float64
	for c := range harClasses {
		for a := range 3 {
			freq[c][a] = 1 + 5*pat.Float64() // cycles per window
			amp[c][a] = 0.4 + pat.Float64()
			off[c][a] = pat.NormFloat64() * 0.3
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x4a52))
	gen := func(n int) Data {
		d := Data{X: make([]float64, 0, n*harWindow*3), Y: make([]int, n), Shape: [3]int{harWindow, 3, 1}, Classes: harClasses}
		for i := range n {
			c := rng.IntN(harClasses)
			d.Y[i] = c
			var phase, f, A [3]float64
			for a := range 3 {
				phase[a] = 2 * math.Pi * rng.Float64()
				f[a] = freq[c][a] * (1 + harJitter*rng.NormFloat64())
				A[a] = amp[c][a] * (1 + harJitter*rng.NormFloat64())
			}
			for t := range harWindow {
				for a := range 3 {
					v := off[c][a] + A[a]*math.Sin(2*math.Pi*f[a]*float64(t)/harWindow+phase[a])
					d.X = append(d.X, v+harNoise*rng.NormFloat64())
				}
			}
		}
		return d
	}
	return Split{Train: gen(trainSize), Val: gen(valSize), Test: gen(testSize)}
}

// fillLevels are the classes of FillLevel: a bottle filled to 0, 50, 80
// or 100 % of its height.
var fillLevels = []float64{0, 0.5, 0.8, 1}

// FillLevel is the fill-level task of spec §5.7: 32×32×3 images of a
// bottle, 4 classes: a bright band from the bottom ending at 0, 50, 80 or
// 100 % of the height. Each image draws the line's jitter, the liquid's
// brightness and tint and pixel noise from seed.
func FillLevel(seed uint64) Split {
	rng := rand.New(rand.NewPCG(seed, 0xf111))
	gen := func(n int) Data {
		d := Data{X: make([]float64, 0, n*fillSide*fillSide*3), Y: make([]int, n), Shape: [3]int{fillSide, fillSide, 3}, Classes: len(fillLevels)}
		for i := range n {
			c := rng.IntN(len(fillLevels))
			d.Y[i] = c
			line := fillSide - int(math.Round(fillLevels[c]*fillSide)) + rng.IntN(2*fillLineJit+1) - fillLineJit // first liquid row
			bright := fillContrast * (0.6 + 0.8*rng.Float64())
			var tint [3]float64
			for ch := range tint {
				tint[ch] = 0.8 + 0.4*rng.Float64()
			}
			for y := range fillSide {
				for range fillSide {
					for ch := range 3 {
						v := 0.2
						if y >= line {
							v += bright * tint[ch]
						}
						d.X = append(d.X, v+fillNoise*rng.NormFloat64())
					}
				}
			}
		}
		return d
	}
	return Split{Train: gen(trainSize), Val: gen(valSize), Test: gen(testSize)}
}
