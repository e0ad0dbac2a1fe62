// Package proc names the current process so that another process can
// later prove it dead: a trial's owner that is provably gone is re-run at
// once instead of after its heartbeat lease (docs/crash-recovery.md).
//
// An identity is "host:pid:start.boot.machine.pidns": the host name, the
// process id, the process's start time in clock ticks since boot (field 22
// of /proc/PID/stat), 8 hex digits of the kernel's boot id, 8 of the
// machine id (/etc/machine-id) and the inode of the pid namespace, each of
// the last three "-" when unknown. The pid alone is not enough: pids are
// reused, so the start time tells a new process with the old pid apart;
// the boot id catches a reboot (start times restart); the machine id tells
// two machines with one host name apart (a default "ubuntu", cloned
// images); the pid namespace two containers sharing one kernel and host
// name, whose pids mean different processes.
//
// Status answers Dead only when it can prove it, and Unknown whenever it
// cannot (another host, another container, no /proc, an identity of
// another form such as the older "host:pid"): an unknown owner keeps the
// lease rule.
package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Status is what can be known of an identity's process from here.
type Status int

const (
	Unknown Status = iota // another host or namespace, or no way to tell: not provably dead
	Alive                 // this very process is running here
	Dead                  // provably gone: same machine, and no such process (or another one with its pid)
)

func (s Status) String() string {
	return [...]string{"unknown", "alive", "dead"}[s]
}

// ID is a parsed identity.
type ID struct {
	Host    string
	PID     int
	Start   uint64 // clock ticks after boot
	Boot    string // 8 hex digits, or "-"
	Machine string // 8 hex digits, or "-"
	PIDNS   string // pid namespace inode, or "-"
}

// String formats id as Parse reads it.
func (id ID) String() string {
	return fmt.Sprintf("%s:%d:%d.%s.%s.%s", id.Host, id.PID, id.Start, id.Boot, id.Machine, id.PIDNS)
}

// Parse reads an identity written by ID.String. ok is false for anything
// else, e.g. the "host:pid" trials recorded before the start time was.
func Parse(s string) (id ID, ok bool) {
	f := strings.Split(s, ":")
	if len(f) != 3 || f[0] == "" {
		return ID{}, false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return ID{}, false
	}
	t := strings.Split(f[2], ".")
	if len(t) != 4 {
		return ID{}, false
	}
	start, err := strconv.ParseUint(t[0], 10, 64)
	if err != nil {
		return ID{}, false
	}
	return ID{Host: f[0], PID: pid, Start: start, Boot: t[1], Machine: t[2], PIDNS: t[3]}, true
}

// Describe is a person's name for the process an identity names: "pid 42
// on host h" for one of ours, the identity itself otherwise.
func Describe(s string) string {
	if id, ok := Parse(s); ok {
		return fmt.Sprintf("pid %d on host %s", id.PID, id.Host)
	}
	return s
}

// Short is "host:pid" for one of ours, the identity itself otherwise: what
// a table of trials shows (the rest proves a process dead, not which it is).
func Short(s string) string {
	if id, ok := Parse(s); ok {
		return fmt.Sprintf("%s:%d", id.Host, id.PID)
	}
	return s
}

// Self returns the identity of the current process; where the start time
// cannot be read (not Linux) it is the older "host:pid", which no process
// can prove dead.
func Self() string {
	host, _ := os.Hostname()
	id, ok := self(host)
	if !ok {
		return fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	return id.String()
}

// mine caches this process's identity, which Of compares every trial's
// with: it does not change while the process runs.
var mine = sync.OnceValues(func() (ID, bool) {
	host, _ := os.Hostname()
	return self(host)
})

// Of returns what can be known here of the process the identity s names.
func Of(s string) Status {
	id, ok := Parse(s)
	if !ok {
		return Unknown
	}
	me, ok := mine()
	if !ok || id.Host != me.Host {
		return Unknown
	}
	return status(id, me, probe)
}

// status judges id against this process's identity me, reading the
// process with pid through probe. Split from Of for the tests.
func status(id, me ID, probe func(pid int) (start uint64, found bool, err error)) Status {
	known := func(a, b string) bool { return a != "-" && b != "-" }
	switch {
	case !known(id.Machine, me.Machine):
		if id.Boot != me.Boot || !known(id.Boot, me.Boot) {
			return Unknown // a reboot or another machine: cannot tell which
		}
	case id.Machine != me.Machine:
		return Unknown // another machine with the same host name
	case !known(id.Boot, me.Boot):
		return Unknown
	case id.Boot != me.Boot:
		return Dead // this machine rebooted since: every process of then is gone
	}
	if !known(id.PIDNS, me.PIDNS) || id.PIDNS != me.PIDNS {
		return Unknown // another container on this kernel: its pids are not ours
	}
	start, found, err := probe(id.PID)
	switch {
	case err != nil:
		return Unknown
	case !found || start != id.Start:
		return Dead // gone, or its pid reused by a later process
	}
	return Alive
}

// Identify returns the identity of the running process pid of this host,
// as that process's Self would (for tests, and for a parent naming its
// child).
func Identify(pid int) (string, bool) {
	host, _ := os.Hostname()
	me, ok := self(host)
	if !ok {
		return "", false
	}
	start, found, err := probe(pid)
	if err != nil || !found {
		return "", false
	}
	me.PID, me.Start = pid, start
	return me.String(), true
}
