package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// outMode says what writeOut may find at the path it writes.
type outMode int

const (
	// replaceFile replaces a regular file that is there (never the file a
	// symbolic link there points to).
	replaceFile outMode = iota
	// newFile refuses any file that is there: one whose mode the command
	// could not vouch for, a secret's.
	newFile
)

// writeOut writes data to path, a file named by an --out flag, with mode
// perm (whatever the umask). It refuses a symbolic link at path, which
// would make the command overwrite whatever the link points to (a file an
// attacker who can write into the folder chose, with the user's rights),
// and anything but a regular file. The data goes into a new temporary file
// beside path (created exclusively, so never through a link), synced, then
// renamed into place: rename replaces a link that appeared meanwhile
// rather than following it, and a crash leaves the old file or the new
// one whole, never half of one. With newFile, anything at path is refused
// (writeNew).
func writeOut(path string, data []byte, perm fs.FileMode, mode outMode) error {
	if fi, err := os.Lstat(path); err == nil {
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: not written through (it would overwrite the file it points to); remove it or name another file", path)
		case mode == newFile:
			return fmt.Errorf("%s exists already: remove it first, or name another file", path)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file (%v): name a file", path, fi.Mode().Type())
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if mode == newFile {
		return writeNew(path, data, perm)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // the rename itself on disk
		d.Close()
	}
	return nil
}

// writeNew creates path with O_EXCL, which fails on anything there, a
// symbolic link included (it is not followed: POSIX open(2)), so a link
// that appeared after writeOut looked is refused too.
func writeNew(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists already: remove it first, or name another file", path)
		}
		return err
	}
	err = f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
