package report

import (
	"testing"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/study"
)

// The curves drawn of a long study: at most maxCurves besides the best
// trial's, PRUNED ones among them even when pruning follows the very
// period an even spread would step by.
func TestPickCurves(t *testing.T) {
	for _, c := range []struct {
		n, every          int // n curves, every every-th one PRUNED (0: none)
		wantMin, wantMaxP int // PRUNED curves drawn: at least, at most
	}{
		{n: 50000, every: 100, wantMin: maxCurves / 4, wantMaxP: maxCurves / 4},
		{n: 50000, every: 10, wantMin: maxCurves / 4, wantMaxP: maxCurves / 4},
		{n: 50000, every: 2, wantMin: maxCurves/2 - 1, wantMaxP: maxCurves / 2}, // the best trial, 7, is one of them
		{n: 50000, every: 0, wantMin: 0, wantMaxP: 0},
		{n: 300, every: 3, wantMin: 100, wantMaxP: 100},
		{n: 50000, every: 1, wantMin: maxCurves, wantMaxP: maxCurves},
	} {
		cs := make([]analysis.Curve, c.n)
		for i := range cs {
			cs[i] = analysis.Curve{Number: i, State: study.Complete}
			if c.every > 0 && i%c.every == 3%c.every {
				cs[i].State = study.Pruned
			}
		}
		other, pruned, top := pickCurves(cs, 7)
		if len(top) != 1 || cs[top[0]].Number != 7 {
			t.Errorf("%+v: best curve %v", c, top)
		}
		if len(other)+len(pruned) > maxCurves {
			t.Errorf("%+v: %d curves", c, len(other)+len(pruned))
		}
		if len(pruned) < c.wantMin || len(pruned) > c.wantMaxP {
			t.Errorf("%+v: %d PRUNED curves, want %d..%d", c, len(pruned), c.wantMin, c.wantMaxP)
		}
		for _, k := range pruned {
			if cs[k].State != study.Pruned {
				t.Fatalf("%+v: curve %d is not PRUNED", c, k)
			}
		}
	}
}
