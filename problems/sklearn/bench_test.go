package sklearn

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkTasks times the evaluations of random configurations of the
// tasks of the suite, of Extra and then of every other model and dataset,
// one worker each, and reports the worker's median and largest seconds
// per evaluation (all folds), the numbers of docs/real-tasks.md. The
// whole zoo takes long (gb on digits: 17 s an evaluation); pick tasks
// with the -bench pattern:
//
//	go test -run '^$' -bench 'Tasks/sklearn:(svm|rf):' -benchtime 20x ./problems/sklearn
func BenchmarkTasks(b *testing.B) {
	if _, err := findPython(); err != nil {
		b.Skipf("scikit-learn is missing: %v", err)
	}
	var tasks []string
	for _, task := range slices.Concat(Suite(), Extra(), Names()) {
		if !slices.Contains(tasks, task) {
			tasks = append(tasks, task)
		}
	}
	for _, task := range tasks {
		b.Run(task, func(b *testing.B) {
			p, err := NewWith(task, Options{Processes: 1})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			sample := func() error {
				_, err := p.Evaluate(p.Space().Decode(p.Space().Sample(rng)), nil)
				return err
			}
			if err := sample(); err != nil { // starts the worker, outside the timing
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := sample(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			s := p.Seconds()[1:]
			slices.Sort(s)
			b.ReportMetric(s[len(s)/2], "median-s/eval")
			b.ReportMetric(s[len(s)-1], "max-s/eval")
			b.ReportMetric(0, "ns/op") // the wall time includes the pipe; the worker's seconds are the cost
		})
	}
}
