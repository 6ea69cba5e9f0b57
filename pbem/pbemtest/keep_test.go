package pbemtest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// seen is what a mail client caches of a mailbox: UIDVALIDITY, UIDNEXT
// and each message's UID, flags and text.
type seen struct {
	Validity uint32
	Next     imap.UID
	Messages []string // "UID flags subject"
}

func look(t *testing.T, c *imapclient.Client, box string) seen {
	t.Helper()
	sel, err := c.Select(box, &imap.SelectOptions{ReadOnly: true}).Wait()
	require.NoError(t, err, box)
	s := seen{Validity: sel.UIDValidity, Next: sel.UIDNext}
	if sel.NumMessages > 0 {
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, InternalDate: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		require.NoError(t, err)
		for _, m := range msgs {
			subj := ""
			for _, l := range strings.Split(string(m.FindBodySection(section)), "\r\n") {
				if strings.HasPrefix(l, "Subject: ") {
					subj = l
				}
			}
			fl := make([]string, 0, len(m.Flags))
			for _, f := range m.Flags {
				fl = append(fl, string(f))
			}
			slices.Sort(fl)
			s.Messages = append(s.Messages, fmt.Sprintf("%d %v %s %s", m.UID, fl, m.InternalDate.UTC().Format(time.RFC3339), subj))
		}
	}
	require.NoError(t, c.Unselect().Wait())
	return s
}

func login(t *testing.T, addr, user string, password ...string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	pw := pbemtest.DefaultPassword
	if len(password) > 0 {
		pw = password[0]
	}
	require.NoError(t, c.Login(user, pw).Wait())
	return c
}

// With Options.Dir the mailboxes outlive the servers: after a stop and a
// start on the same directory a client finds every mailbox with the same
// UIDVALIDITY, UIDNEXT, UIDs, flags and dates, and its subscriptions; the
// next mail gets the next UID.
func TestKeptMailboxesSurviveARestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	srv, err := pbemtest.Start(pbemtest.Options{Dir: dir, Users: map[string]string{"bot@pbem.test": "orrery"}})
	require.NoError(t, err)
	send := func(srv *pbemtest.Server, subject string) {
		s := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}
		m := outbox.Mail{MessageID: outbox.NewMessageID("x"), From: "bot@pbem.test", To: []string{"Ann@Example.org"}, Subject: subject, Text: "hello", Date: time.Now()}
		require.NoError(t, s.Send(context.Background(), []outbox.Mail{m})[0])
	}
	for i := 1; i <= 4; i++ {
		send(srv, fmt.Sprintf("report %d", i))
	}
	c := login(t, srv.IMAPAddr, "ann@example.org")
	require.NoError(t, c.Create("Games", nil).Wait())
	require.NoError(t, c.Subscribe("Games").Wait())
	require.NoError(t, c.Create("Trash", nil).Wait())
	require.NoError(t, c.Delete("Trash").Wait()) // its UIDVALIDITY is not given again
	_, err = c.Select("INBOX", nil).Wait()
	require.NoError(t, err)
	// A client reads 1, flags 2, moves 3 to Games, deletes 4.
	require.NoError(t, c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close())
	require.NoError(t, c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged, "$Label1"}}, nil).Close())
	_, err = c.Move(imap.UIDSetNum(3), "Games").Wait()
	require.NoError(t, err)
	require.NoError(t, c.Store(imap.UIDSetNum(4), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close())
	require.NoError(t, c.Expunge().Close())
	_, err = c.Copy(imap.UIDSetNum(1), "Games").Wait()
	require.NoError(t, err)
	require.NoError(t, c.Unselect().Wait())
	note := "Subject: a note\r\n\r\nkept\r\n"
	a := c.Append("Games", int64(len(note)), &imap.AppendOptions{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Flags: []imap.Flag{imap.FlagDraft}})
	_, err = a.Write([]byte(note))
	require.NoError(t, err)
	require.NoError(t, a.Close())
	_, err = a.Wait()
	require.NoError(t, err)
	// A folder renamed keeps its mail under the new name.
	require.NoError(t, c.Create("Tmp", nil).Wait())
	_, err = c.Select("Games", nil).Wait()
	require.NoError(t, err)
	_, err = c.Copy(imap.UIDSetNum(1), "Tmp").Wait()
	require.NoError(t, err)
	require.NoError(t, c.Unselect().Wait())
	require.NoError(t, c.Rename("Tmp", "Kept", nil).Wait())
	before := map[string]seen{"INBOX": look(t, c, "INBOX"), "Games": look(t, c, "Games"), "Kept": look(t, c, "Kept")}
	assert.Len(t, before["Kept"].Messages, 1)
	assert.Len(t, before["INBOX"].Messages, 2)
	assert.Len(t, before["Games"].Messages, 3)
	c.Close()
	srv.Close()

	srv, err = pbemtest.Start(pbemtest.Options{Dir: dir, IMAPAddr: srv.IMAPAddr})
	require.NoError(t, err)
	defer srv.Close()
	c = login(t, srv.IMAPAddr, "ann@example.org")
	for box, want := range before {
		assert.Equal(t, want, look(t, c, box), box)
	}
	_, err = c.Select("Tmp", nil).Wait()
	assert.Error(t, err, "the renamed folder came back under its old name")
	texts, err := os.ReadDir(filepath.Join(dir, "msg"))
	require.NoError(t, err)
	assert.Len(t, texts, 4, "the texts of the kept messages (reports 1-3 and the note), the expunged report 4's removed")
	subs, err := c.List("", "*", &imap.ListOptions{SelectSubscribed: true}).Collect()
	require.NoError(t, err)
	require.Len(t, subs, 1)
	assert.Equal(t, "Games", subs[0].Mailbox)
	require.NoError(t, c.Create("Later", nil).Wait())
	later := look(t, c, "Later")
	assert.Greater(t, later.Validity, before["Games"].Validity+1, "the deleted Trash's UIDVALIDITY came back")
	send(srv, "report 5")
	after := look(t, c, "INBOX")
	require.Len(t, after.Messages, 3)
	assert.True(t, strings.HasPrefix(after.Messages[2], fmt.Sprint(before["INBOX"].Next, " ")), after.Messages[2])
	// The bot's account, made by Options.Users, is kept too.
	login(t, srv.IMAPAddr, "bot@pbem.test", "orrery")
}

// A damaged state file is said, not taken for empty mailboxes.
func TestKeptMailboxesDamaged(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "state.json"), []byte("{"), 0o600))
	_, err := pbemtest.Start(pbemtest.Options{Dir: dir})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is damaged")
}
