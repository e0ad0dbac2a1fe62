package space_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/space"
	"go.yaml.in/yaml/v3"
)

func Example() {
	src := `
C:      {type: float, low: 1.0e-3, high: 1.0e3, log: true}
kernel: {type: categorical, choices: [rbf, poly, linear]}
degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}
width:  {type: ordinal, values: [16, 32, 64, 128]}
`
	var s space.Space
	if err := yaml.Unmarshal([]byte(src), &s); err != nil {
		fmt.Println(err)
		return
	}
	u, err := s.Encode(space.Assignment{"C": 1.0, "kernel": "poly", "degree": 3, "width": 64.0})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("encoded %.4f\n", u)
	fmt.Printf("features %.4f\n", s.Features(u, nil))
	fmt.Println("decoded degree", s.Decode(u)["degree"])

	// Initial design: 4 scrambled Sobol points rounded to legal values.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range s.Design(space.DesignSobol, 4, rng) {
		if err := s.Validate(s.Decode(p)); err != nil {
			fmt.Println(err)
		}
	}
	_, err = space.New(space.Param{Name: "C", Kind: space.Float, Low: 0, High: 1, Log: true})
	fmt.Println(err)
	// Output:
	// encoded [0.5000 0.5000 0.3750 0.6250]
	// features [0.5000 0.0000 1.0000 0.0000 0.3750 0.6250]
	// decoded degree 3
	// space.C: log scale needs low > 0, got low = 0
}
