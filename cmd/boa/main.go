// Command boa is Bayesian optimisation for AutoML: it tunes the parameters
// of functions and programs with as few evaluations as possible.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := rootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "boa:", err)
		os.Exit(1)
	}
}
