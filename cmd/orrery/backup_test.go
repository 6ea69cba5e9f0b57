package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/pbem/config"
)

// orrery db backup, as a GM runs it: a copy named by --out that opens
// with the games in it; a copy in the config's backup.dir, the oldest
// ones beyond backup.keep deleted (and nothing else in the dir); and an
// answer that says what to do when there is nowhere to write.
func TestDBBackupByCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	must(t, db, "", "game", "new", "toy", "--id", "g1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	copyPath := filepath.Join(dir, "copy.db")
	out := must(t, db, "", "db", "backup", "--out", copyPath)
	if !strings.Contains(out, "wrote "+copyPath) {
		t.Errorf("db backup --out printed:\n%s", out)
	}
	if out := must(t, copyPath, "", "game", "list"); !strings.Contains(out, "g1") {
		t.Errorf("the copy lists no game g1:\n%s", out)
	}
	if _, err := cli(t, db, "", "db", "backup", "--out", copyPath); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a second backup over the first: %v", err)
	}
	t.Setenv("ORRERY_CONFIG", "")
	if _, err := cli(t, db, "", "db", "backup"); err == nil || !strings.Contains(err.Error(), "--out FILE") {
		t.Errorf("db backup with nowhere to write: %v", err)
	}

	bdir := filepath.Join(dir, "bdir")
	require.NoError(t, os.MkdirAll(bdir, 0o700))
	for _, name := range []string{"orrery-20260101T000000Z.db", "orrery-20260102T000000Z.db", "notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(bdir, name), []byte("x"), 0o600))
	}
	cfg := filepath.Join(dir, "orrery.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("backup:\n  dir: "+bdir+"\n  keep: 2\n"), 0o600))
	out = must(t, db, "", "db", "backup", "--config", cfg)
	for _, want := range []string{"wrote " + bdir + "/orrery-", "deleted the oldest copy orrery-20260101T000000Z.db (backup.keep is 2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("db backup --config lacks %q:\n%s", want, out)
		}
	}
	left, err := os.ReadDir(bdir)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	require.Len(t, names, 3, "%v", names)
	assert.Equal(t, "notes.txt", names[0])
	assert.Equal(t, "orrery-20260102T000000Z.db", names[1])
	assert.Regexp(t, `^orrery-\d{8}T\d{6}Z\.db$`, names[2])
}

// Through a running daemon the copy goes to the daemon's backup.dir, and
// --out (a file the daemon would write for someone else) is refused.
func TestDBBackupThroughDaemon(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "daemon.db")
	st, err := store.Open(db, store.Options{})
	require.NoError(t, err)
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bdir := filepath.Join(dir, "bdir")
	daemonEnv := &env{rulesets: []engine.Ruleset{toy.Ruleset()}, backup: config.Backup{Dir: bdir, Keep: 7}}
	done := make(chan error, 1)
	go func() { done <- ServeControl(ctx, daemonEnv, st, db, slog.New(slog.DiscardHandler)) }()
	for range 100 {
		if _, err := os.Stat(ControlPath(db)); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	forwarded := func(args ...string) (string, error) {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{toy.Ruleset()}}
		err := runOrForward(context.Background(), e, append(args, "--db", db))
		return out.String(), err
	}
	out, err := forwarded("db", "backup")
	require.NoError(t, err, out)
	assert.Contains(t, out, "through the running daemon")
	have, err := backups(bdir)
	require.NoError(t, err)
	assert.Len(t, have, 1)
	_, err = forwarded("db", "backup", "--out", filepath.Join(dir, "mine.db"))
	assert.ErrorContains(t, err, "leave --out out")
	_, err = os.Stat(filepath.Join(dir, "mine.db"))
	assert.True(t, os.IsNotExist(err), "the daemon wrote the file a command named")
	cancel()
	require.NoError(t, <-done)
}

// The daemon's loop takes its first copy at once when the dir has none,
// and waits backup.every after the newest one when it has: a daemon
// restarted often still takes them, and not one at every start.
func TestBackupLoopSchedule(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "live.db"), store.Options{})
	require.NoError(t, err)
	defer st.Close()
	bdir := filepath.Join(dir, "bdir")
	b := config.Backup{Dir: bdir, Every: time.Hour, Keep: 7}
	run := func(within time.Duration) []string {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { backupLoop(ctx, st, b, slog.New(slog.DiscardHandler)); close(done) }()
		deadline := time.Now().Add(within)
		var have []string
		for time.Now().Before(deadline) {
			if have, _ = backups(bdir); len(have) > 0 && within > time.Second {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		<-done
		have, _ = backups(bdir)
		return have
	}
	have := run(10 * time.Second)
	require.Len(t, have, 1, "the first copy, at once")
	have = run(300 * time.Millisecond)
	assert.Len(t, have, 1, "no second copy before an hour after the first")
}
