package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A bbolt file is held by one process, so nothing outside the daemon can
// copy it consistently while it runs (a file copy taken meanwhile may
// hold half a commit). Backup copies it from inside, in one read-only
// transaction: bbolt writes the file as that transaction sees it, while
// the daemon goes on committing beside it. PostgreSQL has its own tools
// for this (pg_dump, base backups and replicas), and Backup says so.

// ErrNoBackup is returned by Backup on a store that is not copied this
// way.
var ErrNoBackup = errors.New("this store is not backed up by orrery: use PostgreSQL's own tools (pg_dump, or pg_basebackup and a replica)")

// backuper is a backend that can write a consistent copy of itself.
type backuper interface {
	backup(ctx context.Context, w io.Writer) (int64, error)
}

func (b *boltBackend) backup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := b.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(ctxWriter{ctx, w})
		return err
	})
	return n, err
}

// ctxWriter stops a long copy when its context ends.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// BackupInfo says what Backup wrote.
type BackupInfo struct {
	Path  string
	Bytes int64
	Took  time.Duration
}

// Backup writes a consistent copy of the database, as one transaction
// sees it, to path, a file that must not exist yet, owner-only. The copy
// is written beside path first and renamed into place once it is whole
// and on disk, then opened to check that it is a database of this
// build's schema: a path that exists is a whole copy. Writers are not
// held up meanwhile; on bbolt the file may grow while the copy is taken
// (the pages the copy still reads are not reused until it ends).
func (s *Store) Backup(ctx context.Context, path string) (BackupInfo, error) {
	b, ok := s.be.(backuper)
	if !ok {
		return BackupInfo{}, ErrNoBackup
	}
	if err := s.enter(); err != nil {
		return BackupInfo{}, err
	}
	defer s.leave()
	start := time.Now()
	if _, err := os.Stat(path); err == nil {
		return BackupInfo{}, fmt.Errorf("backup: %s exists already: name a new file", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := b.backup(ctx, tmp)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err() // bbolt words it, but does not wrap it
		}
		return BackupInfo{}, fmt.Errorf("backup of %s: %w", s.name, err)
	}
	if err := tmp.Sync(); err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	done = true
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // the rename itself on disk
		d.Close()
	}
	c, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup %s was written but does not open: %w", path, err)
	}
	c.Close()
	return BackupInfo{Path: path, Bytes: n, Took: time.Since(start)}, nil
}
