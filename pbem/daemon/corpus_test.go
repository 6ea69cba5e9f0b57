package daemon_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/pbemtest"
)

var update = flag.Bool("update", false, "rewrite testdata/check/*.json from daemon.Inspect")

// TestCorpusMailCheck runs every mail of the corpus through daemon.Inspect,
// the code of `orrery mail check` (no database): whether it is answered,
// its game and secret, every order line as written and how many lines are
// not read. The whole verdict is pinned in testdata/check (-update).
func TestCorpusMailCheck(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(pbemtest.CorpusDir(), "*.eml"))
	listed := map[string]bool{}
	for _, c := range pbemtest.Corpus {
		listed[c.File] = true
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not in pbemtest.Corpus: say what it must come to", filepath.Base(f))
		}
	}
	for _, c := range pbemtest.Corpus {
		t.Run(c.File, func(t *testing.T) {
			raw, err := pbemtest.ReadCorpus(c)
			if err != nil {
				t.Fatal(err)
			}
			v := daemon.Inspect(raw, games.All(), "", 0)
			var orders []string
			for _, l := range v.Orders {
				orders = append(orders, strings.TrimSpace(l.Text))
			}
			if v.Reply != c.Reply || v.Game != c.Game || v.Secret != c.Secret || !slices.Equal(orders, c.Orders) ||
				len(v.Ignored) != c.Ignored || len(v.Errors) != c.Errors {
				t.Errorf("verdict:\n  reply %v game %q secret %q orders %q ignored %d errors %d (%s)\n want\n  reply %v game %q secret %q orders %q ignored %d errors %d",
					v.Reply, v.Game, v.Secret, orders, len(v.Ignored), len(v.Errors), v.Why,
					c.Reply, c.Game, c.Secret, c.Orders, c.Ignored, c.Errors)
			}
			got, _ := json.MarshalIndent(v, "", "  ")
			golden := filepath.Join("testdata", "check", strings.TrimSuffix(c.File, ".eml")+".json")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if string(want) != string(got)+"\n" {
				t.Errorf("verdict differs from %s:\n%s", golden, got)
			}
		})
	}
}

// TestCorpusAppliedOnce delivers every mail of the corpus written for a
// game of ours to a daemon that plays it: each is acknowledged with
// exactly the orders written, applied once (a second delivery changes
// nothing), and the autoresponders and bounces get no answer at all.
func TestCorpusAppliedOnce(t *testing.T) {
	// Every ruleset, no game: each corpus mail sets up its own. The
	// bot's address is the one the corpus mails are written to.
	h := rig{rulesets: games.All(), config: daemon.Config{From: "Orrery <orrery@example.org>"}, noGame: true}.start(t)
	d, q, srv := h.d, h.q, h.srv
	ctx := context.Background()
	uid := uint32(0)
	for _, c := range pbemtest.Corpus {
		if c.Ruleset == "" && c.Reply {
			continue
		}
		t.Run(c.File, func(t *testing.T) {
			raw, err := pbemtest.ReadCorpus(c)
			if err != nil {
				t.Fatal(err)
			}
			m, _ := inmail.Parse(raw, inmail.Options{})
			if c.Ruleset != "" {
				if err := pbemtest.SetUpCorpusGame(ctx, d.Service(), c, strings.ToLower(m.From)); err != nil {
					t.Fatal(err)
				}
			}
			q.RunOnce(ctx)
			before := len(srv.Sent())
			for range 2 { // the second delivery is the same mail again
				uid++
				if _, err := d.Handle(ctx, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw}); err != nil {
					t.Fatal(err)
				}
			}
			q.RunOnce(ctx)
			replies := to(srv.Sent()[before:], strings.ToLower(m.From))
			var acks []string
			for _, r := range replies {
				if strings.Contains(r, "X-Orrery-Kind: reply") {
					acks = append(acks, r)
				}
			}
			if !c.Reply {
				if len(replies) != 0 {
					t.Fatalf("an automatic mail was answered: %q", replies)
				}
				return
			}
			if len(acks) != 1 {
				t.Fatalf("%d answers, want 1: %q", len(acks), acks)
			}
			a := acks[0]
			if c.Acked == nil {
				if !strings.Contains(a, "Not accepted") || !strings.Contains(a, "Nothing from your mail was applied") {
					t.Errorf("want a refusal:\n%s", a)
				}
				return
			}
			// A mail with LANG RU in it sets the address's language, so
			// its own answer comes in Russian.
			accepted, asUnderstood, notRead := "are accepted", "As I understood them:", "Not read as orders"
			if strings.Contains(a, "Здравствуйте") {
				accepted, asUnderstood, notRead = "приняты", "Как я их понял:", "Не прочитано как приказы"
			}
			if !strings.Contains(a, accepted) {
				t.Fatalf("not accepted:\n%s", a)
			}
			got, ok := pbemtest.Understood(a, asUnderstood)
			if !ok {
				t.Fatalf("no %q list:\n%s", asUnderstood, a)
			}
			if !slices.Equal(got, c.Acked) {
				t.Errorf("understood %q, want %q", got, c.Acked)
			}
			if c.Ignored > 0 && !strings.Contains(a, notRead) {
				t.Errorf("the lines not read are not listed:\n%s", a)
			}
			x, err := d.Service().Export(ctx, c.Game)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range x.Log {
				if e.Kind == "orders" && e.Ref == m.MessageID {
					n++
				}
			}
			if n != 1 {
				t.Errorf("the mail's orders were logged %d times", n)
			}
		})
	}
}

// BenchmarkInspectCorpus: daemon.Inspect (orrery mail check, no database)
// over every mail of the corpus, per mail.
func BenchmarkInspectCorpus(b *testing.B) {
	var raws [][]byte
	for _, c := range pbemtest.Corpus {
		raw, err := pbemtest.ReadCorpus(c)
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, raw)
	}
	rs := games.All()
	i := 0
	for b.Loop() {
		daemon.Inspect(raws[i%len(raws)], rs, "", 0)
		i++
	}
}
