package tabular_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/boaopt/boa/problems/tabular"
	"github.com/boaopt/boa/space"
)

// A table in the HPOBench format: the grid comes from the file (here two
// learning rates and two widths), the objective is 1 − balanced accuracy.
func Example() {
	dir, err := os.MkdirTemp("", "tabular")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tiny.csv")
	const data = `alpha,batch_size,depth,learning_rate_init,width,seed0,seed1
1e-08,4,1,0.001,16,0.70,0.80
1e-08,4,1,0.001,64,0.85,0.87
1e-08,4,1,0.01,16,0.60,
1e-08,4,1,0.01,64,0.90,0.70
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		log.Fatal(err)
	}

	kind, file, err := tabular.ParseSpec("hpobench:" + path)
	if err != nil {
		log.Fatal(err)
	}
	t, err := tabular.Load(kind, file)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Name(), t.Len(), "configurations")
	for _, p := range t.Space().Params() {
		fmt.Println(" ", p.Name, p.Kind, p.Values)
	}

	a := space.Assignment{"alpha": 1e-8, "batch_size": 4, "depth": 1, "learning_rate_init": 0.01, "width": 64}
	mean, _ := t.Objective(a, false, nil)
	rng := rand.New(rand.NewPCG(1, 1))
	noisy, _ := t.Objective(a, true, rng) // one seed's value
	fmt.Printf("mean %.2f, one seed %.2f\n", mean, noisy)
	fmt.Printf("optimum %.2f at width %v\n", t.Optimum(), t.Best()["width"])

	_, err = t.Objective(space.Assignment{"alpha": 1e-8, "batch_size": 4, "depth": 1, "learning_rate_init": 0.1, "width": 64}, false, nil)
	fmt.Println(err != nil)
	// Output:
	// hpobench-tiny 4 configurations
	//   alpha ordinal [1e-08]
	//   batch_size ordinal [4]
	//   depth ordinal [1]
	//   learning_rate_init ordinal [0.001 0.01]
	//   width ordinal [16 64]
	// mean 0.20, one seed 0.10
	// optimum 0.14 at width 64
	// true
}
