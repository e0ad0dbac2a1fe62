package kernel

import (
	"fmt"
	"strings"
)

// Family names a stationary covariance function k(r) of the scaled distance r.
type Family int

// Stationary families [spec §2.1; 000 Eq. 2.9; 002 Eqs. 2.26–2.32].
const (
	RBF      Family = iota // squared exponential s² exp(−r²/2)
	Matern12               // exponential s² exp(−r)
	Matern32               // s² (1 + √3 r) exp(−√3 r)
	Matern52               // s² (1 + √5 r + 5r²/3) exp(−√5 r)
	RQ                     // rational quadratic s² (1 + r²/(2a))^(−a)
)

var familyNames = [...]string{
	RBF:      "rbf",
	Matern12: "matern12",
	Matern32: "matern32",
	Matern52: "matern52",
	RQ:       "rq",
}

// String returns the name accepted by ParseFamily.
func (f Family) String() string {
	if f < 0 || int(f) >= len(familyNames) {
		return fmt.Sprintf("Family(%d)", int(f))
	}
	return familyNames[f]
}

// ParseFamily parses a family name: "rbf", "matern12", "matern32", "matern52"
// or "rq" (case-insensitive).
func ParseFamily(s string) (Family, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for f, name := range familyNames {
		if t == name {
			return Family(f), nil
		}
	}
	return 0, fmt.Errorf("kernel: unknown family %q (want one of %s)", s, strings.Join(familyNames[:], ", "))
}
