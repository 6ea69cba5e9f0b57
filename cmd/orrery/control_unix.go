//go:build unix

package main

import (
	"net"
	"syscall"
)

// listenOwnerOnly creates the Unix socket sock with mode 0600 from its
// birth. Connecting to a Unix socket needs write permission on it: under
// the usual umask it would be born 0755, and a chmod after the bind would
// leave an instant in which another user could connect. The umask is the
// process's, so it is narrowed only around the bind; a file another
// goroutine creates in that instant comes out more private, never less.
func listenOwnerOnly(sock string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", sock)
	syscall.Umask(old)
	return ln, err
}
