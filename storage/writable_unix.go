//go:build unix

package storage

import "syscall"

// writable reports access(2)'s answer to "may this process write path?":
// nil, or the reason (EACCES, EROFS). It asks the kernel rather than read
// permission bits, so root, ACLs and read-only mounts are judged as a write
// would be.
func writable(path string) error {
	const wOK = 2 // W_OK on every Unix
	return syscall.Access(path, wOK)
}
