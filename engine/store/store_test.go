package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	err = s.Update(context.Background(), func(tx Tx) error { return tx.Bucket(BucketMeta).Put(KeySchema, []byte("99")) })
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
	err = s.View(context.Background(), func(tx Tx) error {
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

// holdEnv names the database a helper process holds open; see
// TestSecondProcessGetsClearError.
const holdEnv = "ORRERY_STORE_TEST_HOLD"

// TestMain lets this test binary double as the helper process that holds a
// database open, so the lock is met across processes as in real use (a
// daemon running while someone types `orrery game show`).
func TestMain(m *testing.M) {
	if path := os.Getenv(holdEnv); path != "" {
		s, err := Open(path, Options{})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin) // until the parent closes our stdin
		s.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSecondProcessGetsClearError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("the helper process did not open the database: %q %v", line, err)
	}
	// The default options, as the CLI opens it: the lock wait is bounded
	// (one second) and ends in ErrLocked with advice, not a hang.
	_, err = Open(path, Options{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("open while another process holds the database gave %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "orrery serve") {
		t.Errorf("the error does not name the file and what to do: %v", err)
	}
	ro, err := Open(path, Options{ReadOnly: true, Timeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		if ro != nil {
			ro.Close()
		}
		t.Fatalf("a read-only open while another process writes gave %v, want ErrLocked", err)
	}
}
