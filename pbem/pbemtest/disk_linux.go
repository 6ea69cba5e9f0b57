package pbemtest

import (
	"bytes"
	"errors"
	"os"
	"syscall"
)

// SmallDisk mounts a tmpfs of size ("8M") on a new directory and unmounts
// it when t ends, for a test of a full disk, which needs a real quota. It
// skips t where that cannot be done (not root, or no mount in this
// container). Call it before opening a store there: cleanups run last
// first, so the store is closed before the unmount.
func SmallDisk(t TB, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs for the full disk")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a %s tmpfs on %s (%v): no full-disk test here", size, dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// FillDisk writes a file at path until its disk is full, to the last
// byte: blocks of 64 KiB, then halves of what was refused.
func FillDisk(t TB, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := bytes.Repeat([]byte{'x'}, 64<<10)
	for size := len(block); size > 0; {
		if _, err := f.Write(block[:size]); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			size /= 2
		}
	}
}
