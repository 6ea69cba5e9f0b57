package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"orrery/engine/store"
	"orrery/pbem/config"
)

const backupAbout = `Copies the database while it is in use: the games and everything else the
store holds, as one transaction sees it, into a new owner-only file that
opens as a database of this build (orrery game list --db COPY reads it).

  orrery db backup --out FILE              a copy named FILE (it must not exist)
  orrery db backup --config FILE           a copy in the config's backup.dir,
                                           named orrery-YYYYMMDDTHHMMSSZ.db

While orrery serve runs on the file, the command goes through it and the
copy is written into the daemon's own backup.dir (its config's backup:
section, where it also takes one every backup.every and keeps the newest
backup.keep); --out is not taken then, since the daemon writes no file a
command names. A bbolt file copied with cp while a daemon runs may hold
half a commit: this is the copy to keep. To restore one, stop the daemon
and put the copy in the database's place.

PostgreSQL is backed up with its own tools (pg_dump, or pg_basebackup and a
replica), not with this command.`

// backupName is the name of a copy taken at t in a backup dir; the names
// sort as the times do.
func backupName(t time.Time) string {
	return "orrery-" + t.UTC().Format("20060102T150405Z") + ".db"
}

var backupFile = regexp.MustCompile(`^orrery-\d{8}T\d{6}Z\.db$`)

// backups lists the copies in dir, oldest first.
func backups(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && backupFile.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// backupInto writes a copy of st into dir, named for now, and deletes the
// oldest copies there beyond keep. Only files named as backupName names
// them are counted or deleted.
func backupInto(ctx context.Context, st *store.Store, dir string, keep int, now time.Time) (store.BackupInfo, []string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return store.BackupInfo{}, nil, fmt.Errorf("backup.dir: %w", err)
	}
	info, err := st.Backup(ctx, filepath.Join(dir, backupName(now)))
	if err != nil {
		return info, nil, err
	}
	have, err := backups(dir)
	if err != nil {
		return info, nil, err
	}
	var removed []string
	for len(have) > max(keep, 1) {
		if err := os.Remove(filepath.Join(dir, have[0])); err != nil {
			return info, removed, fmt.Errorf("backup: deleting an old copy: %w", err)
		}
		removed, have = append(removed, have[0]), have[1:]
	}
	return info, removed, nil
}

// backupLoop takes a copy of st into b.Dir every b.Every until ctx ends.
// The first is due b.Every after the newest copy already there (at once
// if there is none), so a daemon restarted more often than that still
// takes them.
func backupLoop(ctx context.Context, st *store.Store, b config.Backup, log *slog.Logger) {
	next := time.Now()
	if have, err := backups(b.Dir); err == nil && len(have) > 0 {
		if t, err := time.Parse("20060102T150405Z", have[len(have)-1][len("orrery-"):len(have[len(have)-1])-len(".db")]); err == nil {
			next = t.Add(b.Every)
		}
	}
	for {
		wait := time.Until(next)
		if wait < 0 {
			wait = 0
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		info, removed, err := backupInto(ctx, st, b.Dir, b.Keep, time.Now())
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			// Tried again in a tenth of the interval: a full disk or a
			// missing directory is mended by a person, and logged each
			// time until it is.
			log.Error("backup", "err", err, "dir", b.Dir)
			next = time.Now().Add(max(b.Every/10, time.Minute))
			continue
		default:
			log.Info("backup written", "path", info.Path, "bytes", info.Bytes, "took", info.Took.Round(time.Millisecond), "deleted", removed)
		}
		next = time.Now().Add(b.Every)
	}
}

// runDBBackup is orrery db backup.
func runDBBackup(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "db backup", "db backup [--out FILE] [--db FILE | --config FILE]", backupAbout)
	out := fs.String("out", "", "the copy's file name (it must not exist); default: a new file in the config's backup.dir")
	d := addDBFlags(fs)
	if rest, err := parse(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("db backup takes no arguments, got %q (name the copy with --out FILE)", rest)
	}
	var b config.Backup
	if e.shared != nil {
		// Through the daemon's control socket: its own backup dir only.
		if *out != "" {
			return errors.New("orrery serve holds the database, and writes no file a command names: leave --out out, and the copy goes to its backup.dir")
		}
		if e.backup.Dir == "" {
			return errors.New("orrery serve holds the database and has no backup.dir: set backup: dir: (and every:) in its config and restart it, or stop it and run orrery db backup --out FILE")
		}
		b = e.backup
	}
	// Opened first: a file a daemon holds sends the command to it.
	svc, done, err := d.open(e)
	if err != nil {
		return err
	}
	defer done()
	st := svc.Store()
	if !st.Locks() {
		return fmt.Errorf("%s: %w", st.Name(), store.ErrNoBackup)
	}
	if e.shared == nil && *out == "" {
		if b, err = backupSettings(d.config); err != nil {
			return err
		}
		if b.Dir == "" {
			return errors.New("name the copy with --out FILE, or give a --config (or ORRERY_CONFIG) whose backup section names a dir")
		}
	}
	var info store.BackupInfo
	var removed []string
	if *out != "" {
		info, err = st.Backup(ctx, *out)
	} else {
		info, removed, err = backupInto(ctx, st, b.Dir, b.Keep, time.Now())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s: %.1f MB in %v, a copy of %s as one transaction saw it", info.Path, float64(info.Bytes)/1e6, info.Took.Round(time.Millisecond), st.Name())
	if e.shared != nil {
		fmt.Fprint(e.stdout, ", through the running daemon")
	}
	fmt.Fprintln(e.stdout)
	for _, r := range removed {
		fmt.Fprintf(e.stdout, "deleted the oldest copy %s (backup.keep is %d)\n", r, b.Keep)
	}
	return nil
}

// backupSettings reads the backup section of the config file named by
// --config or ORRERY_CONFIG (readConfig: decoded strictly, not checked as
// serve checks it); none gives no dir.
func backupSettings(path string) (config.Backup, error) {
	c, err := readConfig(configPath(path))
	if err != nil || c == nil {
		return config.Backup{}, err
	}
	if c.Backup.Keep <= 0 {
		c.Backup.Keep = 7
	}
	return c.Backup, nil
}
