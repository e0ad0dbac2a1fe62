package sampler

import (
	"math"
	"testing"
)

// TestCopula checks the Gaussian copula transform: order preserved, ties
// shared, symmetric about 0.
func TestCopula(t *testing.T) {
	z := copula([]float64{3, -1, 7, 3, 100})
	if !(z[1] < z[0] && z[0] == z[3] && z[3] < z[2] && z[2] < z[4]) {
		t.Fatalf("copula %v does not preserve the order", z)
	}
	// The tied 3s share ranks 2 and 3: q = (2.5 − 0.5)/5 = 0.4.
	if math.Abs(z[1]+z[4]) > 1e-12 || math.Abs(z[0]+0.2533471031357998) > 1e-12 {
		t.Fatalf("copula %v is not symmetric", z)
	}
}
