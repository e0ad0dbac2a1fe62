//go:build !linux

package proc

// self is not known outside Linux: Self gives the older "host:pid",
// which Of answers Unknown for.
func self(string) (ID, bool) { return ID{}, false }

func probe(int) (uint64, bool, error) { return 0, false, errUnsupported }

var errUnsupported = errorString("proc: process start times are read on Linux only")

type errorString string

func (e errorString) Error() string { return string(e) }
