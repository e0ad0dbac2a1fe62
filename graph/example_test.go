package graph_test

import (
	"fmt"

	"github.com/boaopt/boa/graph"
)

// An NB201 cell as a graph, its WL features named as motifs, and the WL
// kernel between two cells.
func Example() {
	a, _ := graph.NB201([6]string{"nor_conv_3x3", "skip_connect", "none", "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"})
	b, _ := graph.NB201([6]string{"nor_conv_3x3", "skip_connect", "none", "nor_conv_1x1", "nor_conv_3x3", "nor_conv_3x3"})
	fmt.Println(a)

	w := graph.NewWL(1, graph.Undirected)
	fa, fb := w.Features(a), w.Features(b)
	for _, c := range fa {
		if w.Level(c.ID) == 1 {
			fmt.Printf("%v × %s\n", c.N, w.Name(c.ID))
		}
	}
	k := w.Kernel([]graph.Features{fa, fb}, 1, graph.Dot)
	fmt.Printf("k(a, b) = %.3f\n", k.At(0, 1))
	// Output:
	// input nor_conv_3x3 nor_conv_1x1 nor_conv_3x3 avg_pool_3x3 output; 0→1 0→2 0→4 1→3 2→5 3→5 4→5
	// 1 × input(avg_pool_3x3, nor_conv_1x1, nor_conv_3x3)
	// 1 × nor_conv_3x3(input, nor_conv_3x3)
	// 1 × nor_conv_1x1(input, output)
	// 1 × nor_conv_3x3(nor_conv_3x3, output)
	// 1 × avg_pool_3x3(input, output)
	// 1 × output(avg_pool_3x3, nor_conv_1x1, nor_conv_3x3)
	// k(a, b) = 0.756
}
