//go:build linux

package runner_test

import (
	"context"
	"fmt"
	"time"

	"github.com/boaopt/boa/runner"
)

// A training command that reports a learning curve, a metric and its result.
func Example() {
	script := `echo "training with lr=$1 on $BOA_STUDY"
for epoch in 1 2 3; do echo "BOA_REPORT $epoch 0.$((9 - 2*epoch))"; done
echo "BOA_METRIC size_kb 120"
echo "BOA_RESULT 0.31"`
	c := runner.Command{
		Args:    []string{"sh", "-c", script, "sh", "{lr}"},
		Timeout: time.Minute,
	}
	if err := runner.Validate(c, []string{"lr", "layers"}); err != nil {
		fmt.Println("bad command:", err)
		return
	}
	t := runner.Trial{ID: 17, Number: 4, Study: "demo", Params: map[string]any{"lr": 0.001, "layers": 3}}
	res, err := runner.Run(context.Background(), c, t, func(r runner.Report) {
		fmt.Printf("step %d: %g\n", r.Step, r.Value)
	})
	if err != nil {
		fmt.Println("trial FAILED:", err)
		return
	}
	fmt.Println("result", res.Value, "size_kb", res.Metrics["size_kb"], "exit", res.ExitCode)

	// A command that fails leaves the reason a user reads in `boa trials`.
	_, err = runner.Run(context.Background(), runner.Command{Args: []string{"sh", "-c", "echo 'out of memory' >&2; exit 137"}}, t, nil)
	fmt.Println("trial FAILED:", err)
	// Output:
	// step 1: 0.7
	// step 2: 0.5
	// step 3: 0.3
	// result 0.31 size_kb 120 exit 0
	// trial FAILED: exit code 137: out of memory
}

func ExampleSubstitute() {
	args, err := runner.Substitute(
		[]string{"train", "--lr={lr}", "--layers", "{layers}", "--act={act}", "--json={{\"a\":1}}"},
		map[string]any{"lr": 1e-4, "layers": 3, "act": "relu"})
	fmt.Println(args, err)
	// Output: [train --lr=0.0001 --layers 3 --act=relu --json={"a":1}] <nil>
}
