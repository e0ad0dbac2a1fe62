package pruner

// State is the part of a trial's life cycle a pruner distinguishes.
type State int

const (
	Running  State = iota // reporting; the trial being decided is one
	Complete              // finished with a value
	Pruned                // stopped early
	Failed                // crashed or refused; pruners ignore it
)

// Point is one intermediate value: the value a trial reported at a step
// (an epoch, an iteration), in the study's own sense (not negated when
// the study maximises).
type Point struct {
	Step  int64
	Value float64
}

// Trial is one trial as a pruner sees it.
type Trial struct {
	Number int     // 0-based position in the study
	State  State   //
	Curve  []Point // its reports, ascending by step, one per step
}

// LastStep returns the largest reported step, and false when there is none.
func (t Trial) LastStep() (int64, bool) {
	if len(t.Curve) == 0 {
		return 0, false
	}
	return t.Curve[len(t.Curve)-1].Step, true
}

// Study is everything a pruner may look at when it decides.
type Study struct {
	Name     string  // the study's name (Hyperband hashes it with the trial number)
	Maximize bool    // larger reported values are better
	Trials   []Trial // every trial of the study, the one being decided included, by Number
}

// Pruner decides whether a running trial should stop after its latest
// report. Prune is called once after every report of t, with t also in
// s.Trials; its last Curve point is that report (the largest step). A
// pruner keeps no state between calls: what it needs it recomputes from
// s, so that a study resumed in another process, or served by several
// processes, prunes alike.
type Pruner interface {
	Prune(s Study, t Trial) bool
}
