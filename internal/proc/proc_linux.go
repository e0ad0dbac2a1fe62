package proc

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// self reads this process's identity from /proc.
func self(host string) (ID, bool) {
	pid := os.Getpid()
	start, found, err := probe(pid)
	if err != nil || !found {
		return ID{}, false
	}
	return ID{Host: host, PID: pid, Start: start, Boot: short("/proc/sys/kernel/random/boot_id"),
		Machine: short("/etc/machine-id"), PIDNS: pidns()}, true
}

// short returns the first 8 hex digits of the id in file, "-" when it
// cannot be read.
func short(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return "-"
	}
	hex := strings.ReplaceAll(strings.TrimSpace(string(b)), "-", "")
	if len(hex) < 8 || strings.Trim(hex[:8], "0123456789abcdefABCDEF") != "" {
		return "-"
	}
	return strings.ToLower(hex[:8])
}

// pidns returns the inode of this process's pid namespace ("pid:[N]").
func pidns() string {
	l, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return "-"
	}
	n := strings.TrimSuffix(strings.TrimPrefix(l, "pid:["), "]")
	if _, err := strconv.ParseUint(n, 10, 64); err != nil {
		return "-"
	}
	return n
}

// probe returns the start time of process pid; found is false when there
// is no such process, or only its zombie (it has exited; its parent has
// not yet waited for it).
func probe(pid int) (start uint64, found bool, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		// Not in /proc: gone, unless /proc hides it (mounted with
		// hidepid, another user's process). kill(pid, 0) tells.
		if kerr := syscall.Kill(pid, 0); errors.Is(kerr, syscall.ESRCH) {
			return 0, false, nil
		}
		return 0, false, err
	}
	if err != nil {
		return 0, false, err
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it follow the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false, errors.New("proc: unreadable " + s)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 { // f[0] is field 3 (state), f[19] field 22 (starttime)
		return 0, false, errors.New("proc: short stat line " + s)
	}
	if f[0] == "Z" || f[0] == "X" {
		return 0, false, nil
	}
	start, err = strconv.ParseUint(f[19], 10, 64)
	return start, err == nil, err
}
