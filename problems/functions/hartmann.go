package functions

import "math"

// Hartmann functions [SFU hart3, hart6; spec §8.1]
//
//	f(x) = −Σ_{i=1}^{4} α_i exp(−Σ_j A_ij (x_j − P_ij)²)   on [0,1]^d.
//
// The sign is the standard one (minimum negative); the PLAyBOOK reference code
// returns +Σ, which the project does not follow [spec §8.2].

var hartmannAlpha = [4]float64{1.0, 1.2, 3.0, 3.2}

var hartmann3A = [4][3]float64{
	{3, 10, 30},
	{0.1, 10, 35},
	{3, 10, 30},
	{0.1, 10, 35},
}

var hartmann3P = [4][3]float64{
	{0.3689, 0.1170, 0.2673},
	{0.4699, 0.4387, 0.7470},
	{0.1091, 0.8732, 0.5547},
	{0.0381, 0.5743, 0.8828},
}

var hartmann6A = [4][6]float64{
	{10, 3, 17, 3.5, 1.7, 8},
	{0.05, 10, 17, 0.1, 8, 14},
	{3, 3.5, 1.7, 10, 17, 8},
	{17, 8, 0.05, 10, 0.1, 14},
}

var hartmann6P = [4][6]float64{
	{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
	{0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
	{0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
	{0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381},
}

// hartmann evaluates the Hartmann sum for any of the constant sets; a and p
// are row slices of the 4×d matrices.
func hartmann(x []float64, a, p [4][]float64) float64 {
	var sum float64
	for i := range hartmannAlpha {
		var inner float64
		for j, xj := range x {
			d := xj - p[i][j]
			inner += a[i][j] * d * d
		}
		sum += hartmannAlpha[i] * math.Exp(-inner)
	}
	return -sum
}

// newHartmann3 returns Hartmann-3.
//
// The optimum is the value of these (SFU) constants at their minimiser,
// refined by Newton iterations: −3.8627797873326624 at
// (0.114588876695158, 0.555648894614065, 0.852546984623456). The often quoted
// −3.86278214782076 belongs to a variant with P₄₁ = 0.03815 instead of 0.0381;
// with the SFU constants f cannot reach it.
func newHartmann3() Function {
	a := [4][]float64{hartmann3A[0][:], hartmann3A[1][:], hartmann3A[2][:], hartmann3A[3][:]}
	p := [4][]float64{hartmann3P[0][:], hartmann3P[1][:], hartmann3P[2][:], hartmann3P[3][:]}
	lo, hi := box(3, 0, 1)
	return Function{
		Name:       "hartmann3",
		Dim:        3,
		Lower:      lo,
		Upper:      hi,
		Optimum:    -3.8627797873326624,
		Minimizers: [][]float64{{0.11458887669515808, 0.5556488946140653, 0.852546984623456}},
		F:          func(x []float64) float64 { return hartmann(x, a, p) },
	}
}

// newHartmann6 returns Hartmann-6 with the constants of spec §8.1; the
// minimiser was refined by Newton iterations from the published
// (0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573).
func newHartmann6() Function {
	a := [4][]float64{hartmann6A[0][:], hartmann6A[1][:], hartmann6A[2][:], hartmann6A[3][:]}
	p := [4][]float64{hartmann6P[0][:], hartmann6P[1][:], hartmann6P[2][:], hartmann6P[3][:]}
	lo, hi := box(6, 0, 1)
	return Function{
		Name:    "hartmann6",
		Dim:     6,
		Lower:   lo,
		Upper:   hi,
		Optimum: -3.3223680114155147,
		Minimizers: [][]float64{{
			0.20168951102721192, 0.15001069181961424, 0.47687397414394633,
			0.2753324304886609, 0.3116516166095917, 0.6573005340674781,
		}},
		F: func(x []float64) float64 { return hartmann(x, a, p) },
	}
}
