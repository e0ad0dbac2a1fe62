package forest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/forest"
)

// TestTreeStructure checks that walking the exported nodes predicts what
// Predict does.
func TestTreeStructure(t *testing.T) {
	X, y := stepData()
	f, err := forest.Fit(X, y, forest.Settings{Trees: 5}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if f.NumTrees() != 5 {
		t.Fatalf("NumTrees = %d, want 5", f.NumTrees())
	}
	for _, x := range X {
		var sum float64
		for k := range f.NumTrees() {
			ns := f.Tree(k)
			i := 0
			for ns[i].Feature >= 0 {
				if x[ns[i].Feature] <= ns[i].Threshold {
					i = ns[i].Left
				} else {
					i = ns[i].Right
				}
			}
			sum += ns[i].Value
		}
		mean, _ := f.Predict(x)
		if math.Abs(sum/5-mean) > 1e-12 {
			t.Errorf("x = %v: nodes give %v, Predict %v", x, sum/5, mean)
		}
	}
}
