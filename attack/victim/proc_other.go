//go:build !unix

package victim

import (
	"fmt"
	"os"
	"os/exec"
)

// Without process groups only the victim itself can be stopped.
func inGroup(*exec.Cmd) {}

func killGroup(p *os.Process) { p.Kill() }

func how(ps *os.ProcessState) string {
	if ps.Exited() {
		return fmt.Sprintf("exited with status %d", ps.ExitCode())
	}
	return "ended: " + ps.String()
}
