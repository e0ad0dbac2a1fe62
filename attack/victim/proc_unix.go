//go:build unix

package victim

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// inGroup makes the victim the leader of a process group of its own, so
// that killing the group also stops what it started (a shell wrapper's
// Python, a data loader's workers).
func inGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the group: a victim that is killed has already
// failed us, so it is given no chance to clean up.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }

// how says how the process ended, in the words of the errors.
func how(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exited with status %d", ps.ExitCode())
}
