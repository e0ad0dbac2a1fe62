package transform

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Transform is a map from objective values to model targets.
type Transform int

const (
	None Transform = iota
	Log
	Copula
	Power
)

var names = [...]string{None: "none", Log: "log", Copula: "copula", Power: "power"}

func (t Transform) known() bool { return t >= 0 && int(t) < len(names) }

func (t Transform) String() string {
	if !t.known() {
		return fmt.Sprintf("Transform(%d)", int(t))
	}
	return names[t]
}

// MarshalText writes the transform's name; an unknown transform is an
// error.
func (t Transform) MarshalText() ([]byte, error) {
	if !t.known() {
		return nil, fmt.Errorf("unknown transform %v", t)
	}
	return []byte(names[t]), nil
}

// UnmarshalText reads a name with Parse.
func (t *Transform) UnmarshalText(b []byte) (err error) {
	*t, err = Parse(string(b))
	return err
}

// Parse reads a transform name; "" is None.
func Parse(s string) (Transform, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return None, nil
	}
	if i := slices.Index(names[:], s); i >= 0 {
		return Transform(i), nil
	}
	return None, fmt.Errorf("unknown transform %q (known: %s)", s, strings.Join(names[:], ", "))
}

// Check returns why v cannot be transformed, or nil: Log needs v > 0.
// NaN and infinite values are refused before any transform sees them.
func (t Transform) Check(v float64) error {
	if t == Log && !(v > 0) {
		return errors.New("transform log needs values > 0")
	}
	return nil
}

// Apply returns the transformed values, in a new slice. Every value must
// pass Check.
func (t Transform) Apply(y []float64) []float64 {
	switch t {
	case Log:
		z := make([]float64, len(y))
		for i, v := range y {
			z[i] = math.Log(v)
		}
		return z
	case Copula:
		return GaussianCopula(y)
	case Power:
		return PowerTransform(y)
	}
	return slices.Clone(y)
}

// GaussianCopula returns Φ⁻¹(r_i/(n+1)) for each y_i, where r_i is the
// number of values ≤ y_i: its rank, tied values taking the highest of
// their ranks, as the reference code's order statistics do [gp spec §1.3;
// reference code: xingchenwan/Casmopolitan, copula_standardize]. A GP
// fitted to it sees only the order of the observations.
func GaussianCopula(y []float64) []float64 {
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(y[a], y[b]) })
	z := make([]float64, n)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && y[idx[hi]] == y[idx[lo]] {
			hi++
		}
		v := distuv.UnitNormal.Quantile(float64(hi) / float64(n+1))
		for _, j := range idx[lo:hi] {
			z[j] = v
		}
		lo = hi
	}
	return z
}
