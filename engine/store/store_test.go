package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestSecondOpenGetsClearError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	a, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_, err = Open(path, Options{Timeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open gave %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "orrery serve") {
		t.Errorf("the error does not say what to do: %v", err)
	}
}

func TestSchemaVersionChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(BucketMeta).Put(KeySchema, []byte("99")) })
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(path, Options{})
	if err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Fatalf("opening a version-99 file gave %v", err)
	}
}

func TestBucketsCreatedAndKeysSort(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "x.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.db.View(func(tx *bolt.Tx) error {
		for _, b := range TopLevel {
			if tx.Bucket(b) == nil {
				t.Errorf("bucket %s missing", b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(Key(9)) >= string(Key(10)) || string(Key(255)) >= string(Key(256)) {
		t.Error("integer keys do not sort numerically")
	}
	if KeyN(Key(123456789)) != 123456789 {
		t.Error("KeyN does not invert Key")
	}
}
