//go:build !unix

package main

import (
	"net"
	"os"
)

// listenOwnerOnly creates the socket and narrows it to the owner; without
// a umask there is no better way here.
func listenOwnerOnly(sock string) (net.Listener, error) {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}
