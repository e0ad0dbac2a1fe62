package mixed

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
)

// MaxSATDirEnv names the environment variable that overrides the folder of
// the MaxSAT instances. Without it, Get looks for shared/data/maxsat in the
// working directory and each of its parents, which finds
// ../shared/data/maxsat beside the repository from the repository root or
// any folder inside it.
const MaxSATDirEnv = "BOA_MAXSAT_DIR"

// maxsat60File is MaxSAT-60, the forced-RB instance frb10-6-4 of the MaxSAT
// Evaluation 2018 [000 §5.6.4; spec §6.6].
const maxsat60File = "frb-frb10-6-4.wcnf"

// loadMaxSAT finds and reads an instance; an absent file gives an error
// wrapping ErrNoData that lists where it looked.
func loadMaxSAT(file string) (*WCNF, error) {
	var tried []string
	if dir := os.Getenv(MaxSATDirEnv); dir != "" {
		p := filepath.Join(dir, file)
		w, err := ReadWCNF(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: MaxSAT instance %s is not in %s (from %s)", ErrNoData, file, dir, MaxSATDirEnv)
		}
		return w, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("%w: MaxSAT instance %s: %v; set %s to the folder that holds it", ErrNoData, file, err, MaxSATDirEnv)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "shared", "data", "maxsat", file)
		tried = append(tried, p)
		w, err := ReadWCNF(p)
		if !errors.Is(err, fs.ErrNotExist) {
			return w, err
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return nil, fmt.Errorf("%w: MaxSAT instance %s not found; looked for shared/data/maxsat/%s in %s and its parent directories (%d places, the last %s); set %s to the folder that holds it (../shared/data/maxsat beside the repository)",
		ErrNoData, file, file, wd, len(tried), tried[len(tried)-1], MaxSATDirEnv)
}

// NewMaxSAT returns the weighted MaxSAT problem of instance w: one binary
// variable hi ("0" false, "1" true) per MaxSAT variable i, and
// f(x) = −Σ_c w_c·𝟙[clause c satisfied], minimised.
//
// With standardise false the weights are the instance's own and the optimum
// is −w.Optimum when the file states one. With standardise true the weights
// are standardised, (w − mean w)/std w with the population std, exactly as
// the COMBO and CASMOPOLITAN code computes it (float32 NumPy arithmetic, see
// numpyStandardise). Then −Σ_{w_c>0} w_c bounds f from below, and it is
// recorded as the optimum when all-false or all-true attains it (for
// frb10-6-4 all-false does: f* = −195.65271).
func NewMaxSAT(name string, w *WCNF, standardise bool) *Problem {
	choices := make([][]string, w.NumVars)
	for i := range choices {
		choices[i] = binary
	}
	if !standardise {
		p := newProblem(name, choices, nil, nil, func(h []int, _ []float64) float64 {
			var s float64
			for c, lits := range w.Clauses {
				if satisfied(lits, h) {
					s += w.Weights[c]
				}
			}
			return -s
		})
		if !math.IsNaN(w.Optimum) {
			p.withOptimum(-w.Optimum)
		}
		return p
	}
	ws := numpyStandardise(w.Weights)
	// The reference sums ws·𝟙[satisfied] over all clauses in float32.
	value := func(sat func(c int) bool) float64 {
		terms := make([]float32, len(ws))
		for c := range ws {
			if sat(c) {
				terms[c] = ws[c]
			}
		}
		return -float64(pairwiseSum32(terms))
	}
	p := newProblem(name, choices, nil, nil, func(h []int, _ []float64) float64 {
		return value(func(c int) bool { return satisfied(w.Clauses[c], h) })
	})
	bound := value(func(c int) bool { return ws[c] > 0 })
	for _, v := range []int{0, 1} {
		h := make([]int, w.NumVars)
		for i := range h {
			h[i] = v
		}
		if p.f(h, nil) == bound {
			p.withOptimum(bound)
			break
		}
	}
	return p
}

// satisfied reports whether some literal of the clause is true under h.
func satisfied(lits []int, h []int) bool {
	for _, l := range lits {
		if l > 0 && h[l-1] == 1 || l < 0 && h[-l-1] == 0 {
			return true
		}
	}
	return false
}

// numpyStandardise returns (w − mean w)/std w computed as NumPy does on a
// float32 array (the reference code casts the weights to float32): mean and
// variance are float32 pairwise sums divided by n, the std a float32 square
// root. Reproducing the rounding matters only for parity: it moves the
// optimum of MaxSAT-60 from −195.65275 (float64) to the published −195.65271.
func numpyStandardise(w []float64) []float32 {
	n := float32(len(w))
	a := make([]float32, len(w))
	for i, v := range w {
		a[i] = float32(v)
	}
	mean := pairwiseSum32(a) / n
	d := make([]float32, len(a))
	for i, v := range a {
		d[i] = (v - mean) * (v - mean)
	}
	sd := float32(math.Sqrt(float64(pairwiseSum32(d) / n)))
	for i, v := range a {
		a[i] = (v - mean) / sd
	}
	return a
}

// pairwiseSum32 is NumPy's pairwise summation of a float32 array (numpy
// umath loops: blocks of up to 128 summed with 8 accumulators, larger
// arrays split in two at a multiple of 8).
func pairwiseSum32(a []float32) float32 {
	n := len(a)
	switch {
	case n < 8:
		var s float32
		for _, v := range a {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float32
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	}
	m := n / 2
	m -= m % 8
	return pairwiseSum32(a[:m]) + pairwiseSum32(a[m:])
}
