//go:build linux

package daemon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// TestDiskFull: with the database's disk full, an orders mail is refused
// with an error (imapin leaves it in the inbox) and changes nothing: no
// log entry, no seen record, no reply queued. Once space is freed the same
// mail is applied exactly once and answered once, and the game verifies.
func TestDiskFull(t *testing.T) {
	dir := pbemtest.SmallDisk(t, "4m")
	var logs bytes.Buffer
	h := newHarnessAt(t, filepath.Join(dir, "db"), func(c *daemon.Config) { c.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	ctx := context.Background()
	h.flush()
	// A long subject makes every handled mail grow the database (seen
	// record, stored answer, queued reply), so the full disk shows at
	// once rather than after bbolt's freed pages are used up.
	subject := "[g1 " + h.secret("ann") + "] " + strings.Repeat("orders for the race ", 200)
	pbemtest.FillDisk(t, filepath.Join(dir, "filler"))

	var failed imapin.Message
	applied := 0
	for i := 0; ; i++ {
		if i == 20 {
			t.Fatal("20 orders mails handled on a full disk without an error: the disk is not full")
		}
		// Each mail changes ann's orders: the same orders again would be
		// answered only limits.ping_pong times (budget.go), and how many
		// mails fit before the disk fills depends on bbolt's free pages.
		m := h.mail("ann@example.org", subject, fmt.Sprintf("push %d", i%3+1))
		logBefore, outBefore := h.logLen(), h.outboxLen()
		_, err := h.d.Handle(ctx, m)
		if err == nil {
			// bbolt reused freed pages: the mail is applied whole.
			applied++
			continue
		}
		t.Logf("mail %d on the full disk: %v", i+1, err)
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("the error does not say the disk is full: %v", err)
		}
		if n := h.logLen(); n != logBefore {
			// The disk may fill between the two transactions of a
			// mail: the orders commit with their done part, then
			// recording the mail as seen fails. That is allowed so
			// long as the orders are in once; the retry below must
			// file the mail without applying it again.
			if !strings.HasPrefix(err.Error(), "record message:") || n != logBefore+1 || h.refs(messageID(m)) != 1 {
				t.Errorf("the failed mail changed the game log: %d entries, was %d", n, logBefore)
			}
		}
		if n := h.outboxLen(); n != outBefore {
			t.Errorf("the failed mail queued %d mails", n-outBefore)
		}
		if seen, err := h.d.Seen(ctx, messageID(m)); err != nil || seen {
			t.Errorf("the failed mail is recorded as seen (%v, %v): it would never be applied", seen, err)
		}
		// The daemon must not take a rolled-back submission for applied
		// orders: with a little space for its own record it would queue
		// "Orders received" for orders that are not in the game.
		if strings.Contains(logs.String(), "after the submission") {
			t.Errorf("the daemon took the failed submission for applied orders:\n%s", logs.String())
		}
		failed = m
		break
	}
	if err := os.Remove(filepath.Join(dir, "filler")); err != nil {
		t.Fatal(err)
	}
	if d := h.handle(failed); d != imapin.Processed {
		t.Errorf("after freeing the disk: disposition %v", d)
	}
	h.handle(failed) // delivered again: filed, not applied twice
	if n := h.refs(messageID(failed)); n != 1 {
		t.Errorf("the mail is in the game log %d times, want 1", n)
	}
	if acks := to(h.flush(), "ann@example.org"); len(acks) != applied+1 {
		t.Errorf("%d acks for %d mails applied", len(acks), applied+1)
	}
	v, err := h.d.Service().Verify(ctx, "g1")
	if err != nil || !v.OK() {
		t.Fatalf("verify after the full disk: %v %+v", err, v)
	}
}

func messageID(m imapin.Message) string {
	_, rest, _ := strings.Cut(string(m.Raw), "Message-ID: <")
	id, _, _ := strings.Cut(rest, ">")
	return id
}

func (h *harness) logLen() int {
	h.t.Helper()
	x, err := h.d.Service().Export(context.Background(), "g1")
	if err != nil {
		h.t.Fatal(err)
	}
	return len(x.Log)
}

// refs counts the game log's entries for a Message-ID.
func (h *harness) refs(id string) int {
	h.t.Helper()
	x, err := h.d.Service().Export(context.Background(), "g1")
	if err != nil {
		h.t.Fatal(err)
	}
	n := 0
	for _, e := range x.Log {
		if e.Ref == id {
			n++
		}
	}
	return n
}

func (h *harness) outboxLen() int {
	h.t.Helper()
	items, err := outbox.Pending(h.st)
	if err != nil {
		h.t.Fatal(err)
	}
	return len(items)
}
