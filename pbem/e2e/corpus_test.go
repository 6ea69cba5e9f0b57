package e2e

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"orrery/games"
	"orrery/pbem/inmail"
	"orrery/pbem/pbemtest"
)

// TestCorpusThroughRealServers sends every mail of the corpus
// (pbem/inmail/testdata/corpus, the shapes real clients send) through
// Postfix to the daemon, which reads it from Dovecot: each mail written
// for a game is acknowledged with exactly the orders written, applied
// once; the autoresponders and bounces get no answer. The sender's address
// gets a nonce, so that no earlier run's mail is counted.
func TestCorpusThroughRealServers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the whole corpus through Postfix and Dovecot (20 s) runs without -short; pbem/daemon's TestCorpusAppliedOnce reads it in process")
	}
	e := newRun(t)
	s, n, bot := e.stack, e.n, e.bot
	ctx := e.start(t, "corpus.db", games.All(), false, 5*time.Minute)
	d := e.d

	for _, c := range pbemtest.Corpus {
		if c.Ruleset == "" && c.Reply {
			continue // about a game this test does not play
		}
		t.Run(c.File, func(t *testing.T) {
			raw, err := pbemtest.ReadCorpus(c)
			if err != nil {
				t.Fatal(err)
			}
			m, err := inmail.Parse(raw, inmail.Options{})
			if m == nil {
				t.Fatal(err)
			}
			local, domain, _ := strings.Cut(m.From, "@")
			from := local + "-" + n + "@" + domain
			raw = bytes.ReplaceAll(raw, []byte(m.From), []byte(from))
			from = strings.ToLower(from)
			if c.Ruleset != "" {
				if err := pbemtest.SetUpCorpusGame(ctx, d.Service(), c, from); err != nil {
					t.Fatal(err)
				}
			}
			envelope := from
			if m.NullSender {
				envelope = ""
			}
			if err := s.Submit(ctx, envelope, bot, raw); err != nil {
				t.Fatalf("Postfix refused the mail: %v", err)
			}
			// Wait until the daemon has handled it, then for its answer.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if ok, _ := d.Seen(ctx, m.MessageID); ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the daemon never handled %s", m.MessageID)
				}
			}
			var replies []*inmail.Message
			var texts []string // each reply's text/plain part, as sent
			wait := 20 * time.Second
			if !c.Reply {
				wait = 2 * time.Second // long enough for an answer to arrive, were there one
			}
			for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				msgs, _ := s.fetch(from)
				replies, texts = replies[:0], texts[:0]
				for _, raw := range msgs {
					// Several corpus mails come from one address: only the
					// answer to this one counts.
					if pm, _ := inmail.Parse(raw, inmail.Options{}); pm != nil && slices.Contains(pm.InReplyTo, m.MessageID) {
						replies = append(replies, pm)
						texts = append(texts, plainPart(t, raw))
					}
				}
				if c.Reply && len(replies) > 0 {
					break
				}
			}
			if !c.Reply {
				if len(replies) != 0 {
					t.Fatalf("an automatic mail was answered: %q", replies[0].Subject)
				}
				return
			}
			if len(replies) != 1 {
				t.Fatalf("%d answers, want 1", len(replies))
			}
			// The text part as sent: inmail, reading it as a player's
			// mail, may prefer the HTML part of a text filled to 78
			// columns. A mail with LANG RU in it is answered in Russian.
			a := texts[0]
			asUnderstood := "As I understood them:"
			if strings.Contains(a, "Здравствуйте") {
				asUnderstood = "Как я их понял:"
			}
			if c.Acked == nil {
				if !strings.Contains(a, "Nothing from your mail was applied") && !strings.Contains(a, "Ничего из вашего письма не применено") {
					t.Errorf("want a refusal:\n%s", a)
				}
				return
			}
			got, ok := pbemtest.Understood(a, asUnderstood)
			if !ok {
				t.Fatalf("not accepted:\n%s", a)
			}
			if !slices.Equal(got, c.Acked) {
				t.Errorf("understood %q, want %q", got, c.Acked)
			}
			x, err := d.Service().Export(ctx, c.Game)
			if err != nil {
				t.Fatal(err)
			}
			if applied := pbemtest.Applied(x)[m.MessageID]; applied != 1 {
				t.Errorf("the mail's orders were logged %d times", applied)
			}
		})
	}
}

// plainPart is the decoded text/plain part of a raw mail.
func plainPart(t *testing.T, raw []byte) string {
	t.Helper()
	text, ok := pbemtest.PlainText(raw)
	if !ok {
		t.Fatalf("no text part in\n%s", raw)
	}
	return text
}
