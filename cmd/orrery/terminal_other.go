//go:build !unix

package main

import "os"

// terminal is a best guess where there are no termios: a character device.
func terminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
