//go:build linux

package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The test binary doubles as a small Go objective: run with
// RUNNER_TEST_HELPER=<mode> it plays that mode and exits.
const helperEnv = "RUNNER_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

func helper(mode string) int {
	switch mode {
	case "longline":
		// 2 MiB lines on both streams around the protocol lines.
		big := strings.Repeat("x", 2<<20)
		fmt.Println(big)
		fmt.Println("  " + big + " BOA_RESULT 9")
		fmt.Println("BOA_RESULT 1.5")
		fmt.Fprintln(os.Stderr, big)
		fmt.Print(big) // a last line without newline
		return 0
	case "env":
		// Echo the protocol variables back as metrics so the test can read
		// them through the protocol itself.
		var params map[string]any
		if err := json.Unmarshal([]byte(os.Getenv("BOA_PARAMS")), &params); err != nil {
			fmt.Fprintln(os.Stderr, "BOA_PARAMS is not JSON:", err)
			return 2
		}
		for _, k := range []string{"BOA_TRIAL_ID", "BOA_TRIAL_NUMBER"} {
			fmt.Printf("BOA_METRIC %s %s\n", k, os.Getenv(k))
		}
		fmt.Printf("BOA_METRIC params %d\n", len(params))
		fmt.Printf("BOA_METRIC lr %v\n", params["lr"])
		if params["kernel"] != "rbf" || params["shrink"] != true || params["layers"] != 3.0 {
			fmt.Fprintf(os.Stderr, "unexpected params %v\n", params)
			return 3
		}
		if os.Getenv("BOA_STUDY") != "svm digits" || os.Getenv("EXTRA") != "yes" || os.Getenv("PATH") == "" {
			fmt.Fprintln(os.Stderr, "bad environment")
			return 4
		}
		fmt.Println("BOA_RESULT 0.25")
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 1
}

// self runs the test binary as a helper in the given mode.
func self(t *testing.T, mode string) Command {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Command{Args: []string{exe}, Env: []string{helperEnv + "=" + mode}}
}
