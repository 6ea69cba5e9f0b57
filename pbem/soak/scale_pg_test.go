//go:build soak

package soak

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/jackc/pgx/v5"

	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
)

// pgSchema makes a schema of its own, named after prefix, on the -scale.pg
// server (TestScale and the pgfaults part), dropped with everything in it
// when t ends, and returns it as postgres:DSN and its name. Commits wait
// for the disk, as in production (synchronous_commit on; the test
// helpers' DSN turns it off).
func pgSchema(t *testing.T, prefix string) (db, schema string) {
	t.Helper()
	ctx := context.Background()
	base := *flagScalePG
	schema = prefix + "_" + nonce()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropPG(base, "DROP SCHEMA "+schema+" CASCADE") })
	return "postgres:" + strings.Replace(storetest.WithSchema(base, schema), "synchronous_commit=off", "synchronous_commit=on", 1), schema
}

// scaleFailover times, k times, how long the mailbox goes unread when its
// reader dies. Two daemons (child processes, as in the pgfaults part, but
// polling for the lock as orrery serve does: pgstore.LeadPoll) share db
// and one mailbox; the leader gets kill -9, a mail is delivered over LMTP
// at once, and the time runs until the standby has handled it (it has
// left the INBOX). The killed daemon is started again as the next
// standby, so the next kill hits the one that took over.
func scaleFailover(t *testing.T, s stack, db string, k int) []time.Duration {
	t.Helper()
	n := nonce()
	bot := "orrery-failover-" + n + "@" + s.Domain
	sent := 0
	deliver := func() {
		t.Helper()
		sent++
		if err := s.injectMany(bot, 1, func(int) []byte {
			return fmt.Appendf(nil, "From: someone-%s@example.org\r\nTo: %s\r\nSubject: help\r\nMessage-ID: <failover-%d-%s@example.org>\r\nDate: %s\r\n\r\nHELP\r\n",
				n, bot, sent, n, time.Now().Format(time.RFC1123Z))
		}); err != nil {
			t.Fatal(err)
		}
	}
	deliver() // the mailbox exists before we log in to watch it
	c, err := imapclient.DialInsecure(s.IMAP, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(bot, "any").Wait(); err != nil {
		t.Fatal(err)
	}
	// handled waits until the INBOX is empty: the reader fetched the mail,
	// answered it and moved it away.
	handled := func(within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
			if err != nil {
				t.Fatal(err)
			}
			if *st.NumMessages == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("failover: %d mails still in the INBOX after %v", *st.NumMessages, within)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	start := func() *exec.Cmd {
		t.Helper()
		cmd, err := startChild(db, bot, "ORRERY_SOAK_LEAD_POLL=serve")
		if err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	var running []*exec.Cmd
	defer func() {
		for _, c := range running {
			c.Process.Signal(syscall.SIGTERM)
			c.Wait()
		}
	}()
	leader := start()
	running = append(running, leader)
	handled(time.Minute) // the first one leads
	var took []time.Duration
	for range k {
		standby := start()
		running = append(running, standby)
		// The standby has started and tried for the lock at least once:
		// the kill lands anywhere in its poll.
		time.Sleep(pgstore.LeadPoll + time.Second)
		leader.Process.Signal(syscall.SIGKILL)
		leader.Wait()
		t0 := time.Now()
		deliver()
		handled(time.Minute)
		took = append(took, time.Since(t0))
		running = running[1:]
		leader = standby
	}
	return took
}
