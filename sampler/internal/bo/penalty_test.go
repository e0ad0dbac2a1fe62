package bo

import "testing"

func TestPenalty(t *testing.T) {
	if got := Penalty([]float64{3, 1, 5}); got != 5.4 {
		t.Errorf("Penalty(3, 1, 5) = %g, want 5.4", got)
	}
	if got := Penalty([]float64{2}); got != 2 {
		t.Errorf("Penalty(2) = %g, want 2", got)
	}
}
