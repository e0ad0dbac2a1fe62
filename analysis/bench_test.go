package analysis_test

import (
	"testing"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// big is a 50,000-trial study (the dashboard's target size) over a mixed
// space of 6 parameters, with a 10-point learning curve per trial.
func big(b *testing.B) analysis.Study {
	sp := space.MustNew(
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-5, High: 1, Log: true},
		space.Param{Name: "momentum", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 8},
		space.Param{Name: "width", Kind: space.Ordinal, Values: []float64{16, 32, 64, 128, 256}},
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam", "rmsprop"}},
		space.Param{Name: "dropout", Kind: space.Float, Low: 0, High: 0.5},
	)
	s := random(b, sp, 50000, 1, func(a space.Assignment) float64 {
		return a["momentum"].(float64)*float64(a["layers"].(int)) + a["dropout"].(float64)
	})
	for i := range s.Trials {
		t := &s.Trials[i]
		for k := range 10 {
			t.Reports = append(t.Reports, study.Report{Step: int64(k), Value: t.Value + 1/float64(k+1)})
		}
		if i%10 == 3 {
			t.State = study.Pruned
		}
	}
	return s
}

func BenchmarkHistory50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		analysis.Downsample(analysis.History(s), 2000)
	}
}

func BenchmarkEDF50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		analysis.EDF(s)
	}
}

func BenchmarkCurves50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		analysis.Curves(s)
	}
}

func BenchmarkTimeline50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		analysis.Timeline(s)
	}
}

func BenchmarkSlice50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		for _, p := range s.Space.Names() {
			if _, err := analysis.Slice(s, p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParallel50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		analysis.Parallel(s)
	}
}

func BenchmarkImportances50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		if _, err := analysis.Importances(s, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkContour50k(b *testing.B) {
	s := big(b)
	for b.Loop() {
		if _, err := analysis.ContourOf(s, "momentum", "layers", 40, 1); err != nil {
			b.Fatal(err)
		}
	}
}
