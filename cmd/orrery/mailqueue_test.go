package main

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// refusing fails every mail, for good (550) or for now.
type refusing struct{ err error }

func (r refusing) Send(_ context.Context, mails []outbox.Mail) []error {
	errs := make([]error, len(mails))
	for i := range errs {
		errs[i] = r.err
	}
	return errs
}

// orrery mail queue, retry and drop, as a GM types them: the mail waiting
// and the mail given up on are listed within 78 columns with their
// secrets blanked, a damaged one is named with the command that drops it,
// retry and drop answer for each number, and wrong numbers or a missing
// reason get an answer that says what to write.
func TestMailQueueByCLI(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "q.db")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := func(to, subject string) outbox.Mail {
		return outbox.Mail{From: "Orrery <bot@pbem.test>", To: []string{to}, Subject: subject, Text: "board\n", Kind: "report", Game: "g1"}
	}
	for _, c := range []struct {
		err  error
		mail outbox.Mail
	}{
		{&outbox.Permanent{Err: errors.New("550 5.1.1 no such user")}, m("gone@example.org", "[g1 k7f3q] turn 3")},
		{errors.New("421 4.3.0 try again later"), m("ann@example.org", "Re: [g1 k7f3q] turn 3")},
		{errors.New("421 4.3.0 try again later"), m("bob@example.org", "[g1] turn 3")},
	} {
		q := outbox.New(st, refusing{c.err}, outbox.Options{})
		if err := st.Update(ctx, func(tx store.Tx) error { return q.Enqueue(tx, c.mail) }); err != nil {
			t.Fatal(err)
		}
		if _, err := q.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Update(ctx, func(tx store.Tx) error {
		return tx.Bucket(store.BucketMail).Bucket(outbox.BucketQueue).Put(store.Key(3), []byte("\xffS2 damaged"))
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	out := must(t, db, "", "mail", "queue")
	for _, want := range []string{
		"2 mails waiting to be sent (waiting 2, given up on 1).",
		"#2  ", "report to ann@example.org", `game g1, "Re: [g1 [redacted]] turn 3"`,
		"1 attempt, next at ", "last error: 421 4.3.0 try again later",
		"#3  cannot be read: outbox item 3: decompressing the stored mail",
		`drop it: orrery mail drop 3 --reason "damaged"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("mail queue lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "k7f3q") || strings.Contains(out, "gone@example.org") {
		t.Errorf("mail queue shows a secret, or the mail given up on:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 78 && !strings.Contains(line, "cannot be read") && !strings.Contains(line, "last error:") {
			t.Errorf("line wider than 78 columns: %q", line)
		}
	}
	out = must(t, db, "", "mail", "queue", "--dead")
	if !strings.Contains(out, "1 mail given up on") || !strings.Contains(out, "given up after 1 attempt\n      last error: 550 5.1.1 no such user") {
		t.Errorf("mail queue --dead:\n%s", out)
	}
	out = must(t, db, "", "mail", "queue", "--limit", "1")
	if !strings.Contains(out, "#2 ") || strings.Contains(out, "#3 ") || !strings.Contains(out, "More: orrery mail queue --after 2") {
		t.Errorf("mail queue --limit 1:\n%s", out)
	}
	out = must(t, db, "", "mail", "queue", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("mail queue --json printed %d lines:\n%s", len(lines), out)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["seq"] != 2.0 || first["subject"] != "Re: [g1 [redacted]] turn 3" || first["last_error"] == nil {
		t.Errorf("mail queue --json: %v %v", err, lines[0])
	}

	if out, err := cli(t, db, "", "mail", "retry", "3"); err == nil || !strings.Contains(out+err.Error(), "drop it (orrery mail drop 3)") {
		t.Errorf("retry of the damaged mail: %v\n%s", err, out)
	}
	if _, err := cli(t, db, "", "mail", "retry", "x1"); err == nil || !strings.Contains(err.Error(), "not a mail number") {
		t.Errorf("retry x1: %v", err)
	}
	if _, err := cli(t, db, "", "mail", "drop", "3"); err == nil || !strings.Contains(err.Error(), "--reason") {
		t.Errorf("drop without a reason: %v", err)
	}
	out = must(t, db, "", "mail", "drop", "#3", "--reason", "damaged")
	if !strings.Contains(out, "#3 (it could not be read) dropped.") {
		t.Errorf("drop:\n%s", out)
	}
	out = must(t, db, "", "mail", "retry", "--all-dead")
	if !strings.Contains(out, "#1 report to gone@example.org: back in the queue, due now.") {
		t.Errorf("retry --all-dead:\n%s", out)
	}
	out = must(t, db, "", "mail", "retry", "2")
	if !strings.Contains(out, "#2 report to ann@example.org: due now.") {
		t.Errorf("retry 2:\n%s", out)
	}
	out = must(t, db, "", "mail", "queue")
	if !strings.Contains(out, "2 mails waiting to be sent (waiting 2, given up on 0).") || strings.Count(out, "due again now") != 2 {
		t.Errorf("after the retries:\n%s", out)
	}
	if out, err := cli(t, db, "", "mail", "drop", "7", "--reason", "x"); err == nil || !strings.Contains(err.Error(), "#7: no such mail") {
		t.Errorf("drop 7: %v\n%s", err, out)
	}
}
