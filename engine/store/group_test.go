package store

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"testing"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "x.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func put(ctx context.Context, s *Store, k, v string) error {
	return s.Update(ctx, func(tx Tx) error { return tx.Bucket(BucketMeta).Put([]byte(k), []byte(v)) })
}

func get(ctx context.Context, s *Store, k string) (string, error) {
	var v string
	err := s.View(ctx, func(tx Tx) error { v = string(tx.Bucket(BucketMeta).Get([]byte(k))); return nil })
	return v, err
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Every Update of a group shares one transaction: a View in the group sees
// the changes before it, nobody outside sees any until the group commits,
// and the group costs one commit.
func TestGroupCommitsOnce(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	writes := func() int64 { return s.Stats().Commits }
	before := writes()
	committed := 0
	err := s.Group(ctx, func(ctx context.Context) error {
		for _, k := range []string{"a", "b", "c"} {
			if err := put(ctx, s, k, "v"+k); err != nil {
				return err
			}
		}
		must(t, s.Update(ctx, func(tx Tx) error {
			tx.OnCommit(func() { committed++ })
			return nil
		}))
		if v, err := get(ctx, s, "b"); err != nil || v != "vb" {
			t.Errorf("a view inside the group reads b = %q, %v; want the group's vb", v, err)
		}
		if v, _ := get(context.Background(), s, "b"); v != "" {
			t.Errorf("b = %q is visible outside the group before it commits", v)
		}
		if committed != 0 {
			t.Error("OnCommit ran before the commit")
		}
		// A Group inside a group joins it.
		return s.Group(ctx, func(ctx context.Context) error { return put(ctx, s, "d", "vd") })
	})
	must(t, err)
	if committed != 1 {
		t.Errorf("OnCommit ran %d times, want once", committed)
	}
	for _, k := range []string{"a", "b", "c", "d"} {
		if v, err := get(ctx, s, k); err != nil || v != "v"+k {
			t.Errorf("after the commit %s = %q, %v", k, v, err)
		}
	}
	if w := writes() - before; w != 1 {
		t.Errorf("the group committed %d times, want once", w)
	}
}

// A failed Update spoils its group: the later calls fail at once, the
// error says so, and nothing of the group is kept, not even the changes
// made before the failure.
func TestGroupFailureRollsBackEverything(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	boom := errors.New("boom")
	var after, viewErr error
	err := s.Group(ctx, func(ctx context.Context) error {
		must(t, put(ctx, s, "a", "1"))
		err := s.Update(ctx, func(tx Tx) error {
			tx.Bucket(BucketMeta).Put([]byte("b"), []byte("2"))
			return boom
		})
		if !errors.Is(err, boom) {
			t.Errorf("the failing Update returned %v, want its own error", err)
		}
		if !s.GroupFailed(ctx) {
			t.Error("GroupFailed is false after a failed Update")
		}
		after = put(ctx, s, "c", "3")
		_, viewErr = get(ctx, s, "a")
		return nil // the caller swallowed the error: the group fails anyway
	})
	for name, e := range map[string]error{"a later Update": after, "a later View": viewErr, "Group": err} {
		if !errors.Is(e, ErrGroupAborted) {
			t.Errorf("%s returned %v, want ErrGroupAborted", name, e)
		}
	}
	if !errors.Is(err, boom) {
		t.Errorf("Group's error %v does not wrap the first failure", err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if v, _ := get(ctx, s, k); v != "" {
			t.Errorf("%s = %q was kept", k, v)
		}
	}
	must(t, put(ctx, s, "a", "1")) // the store works as before
}

// A View's error does not spoil a group: a read changes nothing.
func TestGroupViewErrorKeepsGroup(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	err := s.Group(ctx, func(ctx context.Context) error {
		must(t, put(ctx, s, "a", "1"))
		if s.View(ctx, func(Tx) error { return errors.New("not found") }) == nil {
			t.Error("the View's error was lost")
		}
		if s.GroupFailed(ctx) {
			t.Error("a View's error spoiled the group")
		}
		return put(ctx, s, "b", "2")
	})
	must(t, err)
	if v, _ := get(ctx, s, "b"); v != "2" {
		t.Errorf("b = %q after the group, want 2", v)
	}
}

// A version 1 file is upgraded in place: its version is bumped and the
// markers of the derived indexes cleared, so that their owners rebuild
// them. A read-only open of a version 1 file is refused.
func TestOpenUpgradesVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := Open(path, Options{})
	must(t, err)
	must(t, s.Update(context.Background(), func(tx Tx) error {
		m := tx.Bucket(BucketMeta)
		if err := m.Put(KeyIndexes, []byte("old")); err != nil {
			return err
		}
		return m.Put(KeySchema, []byte("1"))
	}))
	s.Close()
	if _, err := Open(path, Options{ReadOnly: true}); err == nil {
		t.Error("a read-only open of a version 1 file succeeded")
	}
	s, err = Open(path, Options{})
	must(t, err)
	defer s.Close()
	must(t, s.View(context.Background(), func(tx Tx) error {
		m := tx.Bucket(BucketMeta)
		if v := string(m.Get(KeySchema)); v != strconv.Itoa(SchemaVersion) {
			t.Errorf("schema %q after the upgrade, want %d", v, SchemaVersion)
		}
		if m.Get(KeyIndexes) != nil {
			t.Error("the index marker survived the upgrade")
		}
		return nil
	}))
}

// An Update that fails before writing, and says so (Unchanged), leaves its
// group whole: the group goes on and commits the other changes once. Its
// error reads as the one it marks, and errors.Is finds that one. An
// unmarked failure still spoils the group.
func TestUnchangedFailureKeepsTheGroup(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	refused := errors.New("nothing is asked of ann now")
	commits := s.Stats().Commits
	err := s.Group(ctx, func(ctx context.Context) error {
		must(t, put(ctx, s, "a", "1"))
		err := s.Update(ctx, func(tx Tx) error { return Unchanged(refused) })
		if !errors.Is(err, refused) || err.Error() != refused.Error() {
			t.Errorf("the Update returned %v, want %v", err, refused)
		}
		if s.GroupFailed(ctx) {
			t.Fatal("an unchanged failure spoiled the group")
		}
		return put(ctx, s, "b", "2")
	})
	must(t, err)
	if n := s.Stats().Commits - commits; n != 1 {
		t.Errorf("the group committed %d times, want once", n)
	}
	for k, want := range map[string]string{"a": "1", "b": "2"} {
		if v, err := get(ctx, s, k); err != nil || v != want {
			t.Errorf("%s = %q, %v; want %q", k, v, err, want)
		}
	}
	err = s.Group(ctx, func(ctx context.Context) error {
		must(t, put(ctx, s, "c", "3"))
		s.Update(ctx, func(tx Tx) error { return refused })
		if !s.GroupFailed(ctx) {
			t.Error("an unmarked failure left the group whole")
		}
		return nil
	})
	if !errors.Is(err, ErrGroupAborted) {
		t.Errorf("the spoiled group returned %v, want ErrGroupAborted", err)
	}
	if v, _ := get(ctx, s, "c"); v != "" {
		t.Errorf("c = %q after its group was spoiled, want nothing", v)
	}
	if Unchanged(nil) != nil {
		t.Error("Unchanged(nil) is not nil")
	}
}
