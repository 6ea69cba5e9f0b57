//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminal reports whether f is a terminal: it answers the terminal
// attributes request (a pipe, a file or /dev/null does not).
func terminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}
