package pruner

import (
	"testing"

	"github.com/boaopt/boa/curve"
)

// TSE-E with E = 1 is the latest value itself: Estimated{median, TSE-E(1)}
// decides as the median pruner on the raw curves of a minimising study.
func TestEstimatedTSEE1IsMedian(t *testing.T) {
	base := NewMedian()
	base.StartupTrials = 2
	est := Estimated{Base: base, Estimator: curve.TSEE{E: 1}}
	curves := [][]Point{
		at(0, 2.0, 1, 1.4, 2, 1.1, 3, 0.9),
		at(0, 2.2, 1, 1.2, 2, 0.8, 3, 0.7),
		at(0, 1.9, 2, 1.3, 3, 1.2),
	}
	for _, c := range [][]Point{
		at(0, 2.5, 1, 1.5, 2, 1.4, 3, 1.3),
		at(0, 1.5, 1, 1.0, 2, 0.6, 3, 0.5),
		at(0, 2.1, 1, 1.3, 3, 1.0),
		at(0, 3, 1, nan, 2, 0.9),
	} {
		for n := 1; n <= len(c); n++ {
			trials := []Trial{done(curves[0]), done(curves[1]), done(curves[2]), running(c[:n])}
			s, tr := studyOf(false, trials...)
			if got, want := est.Prune(s, tr), base.Prune(s, tr); got != want {
				t.Errorf("%v up to step %d: TSE-E(1) + median %v, median %v", c, c[n-1].Step, got, want)
			}
		}
	}
}

// TSE sums the curve: a trial that starts badly and ends level with the
// complete ones keeps a larger area under its curve, and the median on
// TSE stops it where the median on the latest values would not.
func TestEstimatedTSEChangesDecision(t *testing.T) {
	base := NewMedian()
	base.StartupTrials = 1
	s, tr := studyOf(false,
		done(at(0, 1.0, 1, 0.8, 2, 0.6)),
		done(at(0, 1.1, 1, 0.9, 2, 0.7)),
		running(at(0, 3.0, 1, 1.5, 2, 0.6)))
	if base.Prune(s, tr) {
		t.Fatal("median on the raw values pruned: its best, 0.6, is below the median 0.65")
	}
	base.Latest = true // as Spec.Build sets it under an estimator
	if !(Estimated{Base: base, Estimator: curve.TSE{}}).Prune(s, tr) {
		// Its TSE at step 2 is 5.1; the complete trials' are 2.4 and 2.7.
		t.Error("median on TSE kept the trial: its TSE 5.1 is above the median 2.55")
	}
	// TSE-EMA with γ = 0.5 discounts the bad start, 0.6 + 0.5·1.5 +
	// 0.25·3 = 2.1, but the others have 1.25 and 1.425: still pruned. With
	// γ = 0 it is the latest value, TSE-E(1), and the trial goes on.
	if !(Estimated{Base: base, Estimator: curve.TSEEMA{Gamma: 0.5}}).Prune(s, tr) {
		t.Error("median on TSE-EMA(0.5) kept the trial")
	}
	if (Estimated{Base: base, Estimator: curve.TSEEMA{Gamma: 0}}).Prune(s, tr) {
		t.Error("median on TSE-EMA(0) pruned the trial")
	}
}

// A sum of losses only grows, so its best value so far is its first: the
// median on it, as Optuna compares, would judge a trial by its first step
// alone. Spec.Build compares the latest estimate (Percentile.Latest): a
// trial level at first and behind later is stopped later.
func TestEstimatedComparesTheLatestEstimate(t *testing.T) {
	p, err := Spec{Type: "median", NStartupTrials: new(int), Estimator: "tse"}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := p.(Estimated); !ok || !e.Base.(Percentile).Latest {
		t.Fatalf("Spec{median, tse}.Build() = %#v, want Estimated with Latest", p)
	}
	complete := []Trial{done(at(0, 1.0, 1, 0.5, 2, 0.3)), done(at(0, 1.0, 1, 0.6, 2, 0.4))}
	for n, want := range []bool{false, true, true} {
		c := at(0, 1.0, 1, 1.0, 2, 1.0)[:n+1]
		s, tr := studyOf(false, append(complete, running(c))...)
		if got := p.Prune(s, tr); got != want {
			t.Errorf("level at step 0, then behind; up to step %d: prune %v, want %v", n, got, want)
		}
	}
}
