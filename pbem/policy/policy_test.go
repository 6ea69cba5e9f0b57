package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/pbem/inmail"
	"orrery/pbem/pbemtest"
)

func TestSilence(t *testing.T) {
	cfg := Config{Own: []string{"Orrery@Example.org"}, OwnMessageIDSuffix: "@orrery.example.org"}
	ok := inmail.Message{From: "ann@example.org", MessageID: "x@gmail.com", AutoSubmitted: "no", HasReturnPath: true, ReturnPath: "ann@example.org"}
	tests := []struct {
		name string
		edit func(m *inmail.Message)
		want string // substring of the reason; "" = answer
	}{
		{"ordinary mail", func(m *inmail.Message) {}, ""},
		{"auto-submitted no is fine", func(m *inmail.Message) { m.AutoSubmitted = "no" }, ""},
		{"auto-replied", func(m *inmail.Message) { m.AutoSubmitted = "auto-replied" }, "Auto-Submitted"},
		{"auto-generated", func(m *inmail.Message) { m.AutoSubmitted = "auto-generated" }, "Auto-Submitted"},
		{"bulk", func(m *inmail.Message) { m.Precedence = "bulk" }, "Precedence"},
		{"junk", func(m *inmail.Message) { m.Precedence = "junk" }, "Precedence"},
		{"list", func(m *inmail.Message) { m.Precedence = "list" }, "Precedence"},
		{"precedence first-class is fine", func(m *inmail.Message) { m.Precedence = "first-class" }, ""},
		{"list-id", func(m *inmail.Message) { m.ListID = "<games.lists.example.org>" }, "List-Id"},
		{"null sender", func(m *inmail.Message) { m.NullSender, m.ReturnPath = true, "" }, "empty return path"},
		{"mailer-daemon", func(m *inmail.Message) { m.From = "MAILER-DAEMON@mx.example.org" }, "mail system"},
		{"postmaster", func(m *inmail.Message) { m.From = "postmaster@example.org" }, "mail system"},
		{"no-reply", func(m *inmail.Message) { m.From = "no-reply@example.org" }, "no replies"},
		{"list owner", func(m *inmail.Message) { m.From = "owner-games@lists.example.org" }, "list robot"},
		{"list request", func(m *inmail.Message) { m.From = "games-request@lists.example.org" }, "list robot"},
		{"own address", func(m *inmail.Message) { m.From = "orrery@example.ORG" }, "ourselves"},
		{"own message id", func(m *inmail.Message) { m.MessageID = "r3.ann.demo1@orrery.example.org" }, "one of ours"},
		{"no sender", func(m *inmail.Message) { m.From = "" }, "no sender"},
		{"a 65-octet local part", func(m *inmail.Message) { m.From = strings.Repeat("a", 65) + "@example.org" }, "not one mail can be sent to"},
		{"a 40 KB address", func(m *inmail.Message) { m.From = strings.Repeat("x", 40000) + "@example.org" }, "not one mail can be sent to"},
		{"a domain without a dot", func(m *inmail.Message) { m.From = "ann@localhost" }, "not one mail can be sent to"},
		{"a space in the address", func(m *inmail.Message) { m.From = "ann smith@example.org" }, "not one mail can be sent to"},
		{"a space in a quoted local part", func(m *inmail.Message) { m.From = "\"ann smith\"@example.org" }, ""},
		{"64 octets before the @", func(m *inmail.Message) { m.From = strings.Repeat("a", 64) + "@example.org" }, ""},
		{"a non-ASCII address (SMTPUTF8)", func(m *inmail.Message) { m.From = "олег@пример.рф" }, ""},
		{"x-autoreply", func(m *inmail.Message) { m.AutoReply = "X-Autoreply: yes" }, "automatic"},
		{"exchange", func(m *inmail.Message) { m.AutoReply = "X-Auto-Response-Suppress: All" }, "automatic"},
		{"delivery report", func(m *inmail.Message) { m.ReportType = "delivery-status" }, "report"},
		{"out of office subject", func(m *inmail.Message) { m.Subject = "Out of Office: [demo1 k7f3q] Orders received" }, "autoresponder"},
		{"automatic reply subject", func(m *inmail.Message) { m.Subject = "Automatic reply: [demo1] Orders received" }, "autoresponder"},
		{"german", func(m *inmail.Message) { m.Subject = "Automatische Antwort: [demo1] Bericht" }, "autoresponder"},
		{"russian", func(m *inmail.Message) { m.Subject = "Автоответ: [demo1] Отчёт" }, "autoresponder"},
		{"undeliverable", func(m *inmail.Message) { m.Subject = "Undeliverable: [demo1] Orders received" }, "autoresponder"},
		{"a person's subject about being away is answered", func(m *inmail.Message) { m.Subject = "Re: [demo1] away next week, vacation" }, ""},
		{"a person's vacation subject is answered", func(m *inmail.Message) { m.Subject = "On vacation from Dec 20" }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := ok
			tc.edit(&m)
			got := Silence(&m, cfg)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("Silence = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAuthenticate(t *testing.T) {
	g := &game.Game{ID: "demo1", Players: []game.Player{
		{Name: "ann", Email: "ann@example.org", Secret: "k7f3q"},
		{Name: "bob", Email: "bob@example.org", Secret: "q2w9e"},
		{Name: "bot1", Secret: "zzzzz", Bot: true},
	}}
	tests := []struct {
		name         string
		from, secret string
		relax        Relax
		kind         Kind
		player       string
		notify       bool
	}{
		{"address and secret", "ann@example.org", "k7f3q", Relax{}, Accepted, "ann", false},
		{"address case and secret case", "ANN@Example.org", "K7F3Q", Relax{}, Accepted, "ann", false},
		{"missing secret", "ann@example.org", "", Relax{}, MissingSecret, "ann", false},
		{"missing secret relaxed", "ann@example.org", "", Relax{NoSecret: true}, Accepted, "ann", false},
		{"wrong secret warns the owner", "ann@example.org", "nope", Relax{}, WrongSecret, "ann", true},
		{"another player's secret is wrong", "ann@example.org", "q2w9e", Relax{}, WrongSecret, "ann", true},
		{"wrong secret even when relaxed", "ann@example.org", "nope", Relax{NoSecret: true}, WrongSecret, "ann", true},
		{"unknown address", "eve@example.net", "", Relax{}, Unknown, "", false},
		{"unknown address wrong secret", "eve@example.net", "guess", Relax{}, Unknown, "", false},
		{"right secret foreign address", "ann@work.example", "k7f3q", Relax{}, ForeignAddress, "ann", true},
		{"right secret any address relaxed", "ann@work.example", "k7f3q", Relax{AnyAddress: true}, Accepted, "ann", false},
		{"bot secret from a stranger is not notified", "eve@example.net", "zzzzz", Relax{}, ForeignAddress, "bot1", false},
		{"empty secret never matches an empty one", "eve@example.net", " ", Relax{AnyAddress: true}, Unknown, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := Authenticate(g, tc.from, tc.secret, tc.relax)
			if a.Kind != tc.kind || a.Player.Name != tc.player || a.Notify != tc.notify {
				t.Errorf("Authenticate = %v %q notify=%v, want %v %q notify=%v", a.Kind, a.Player.Name, a.Notify, tc.kind, tc.player, tc.notify)
			}
		})
	}
	var zero Auth
	if zero.Kind == Accepted {
		t.Error("the zero Auth must not accept")
	}
}

// TestCorpus runs Silence over the real-world corpus: only the bounce is
// silenced.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("../inmail/testdata/corpus/*.eml")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	cfg := Config{Own: []string{"orrery@example.org"}, OwnMessageIDSuffix: "@orrery.example.org",
		AuthServID: "mx.example.org", SenderAuth: AuthStrict}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := inmail.Parse(raw, inmail.Options{})
		if m == nil {
			t.Fatalf("%s: %v", f, err)
		}
		got := Silence(m, cfg)
		base := filepath.Base(f)
		auto := strings.HasPrefix(base, "auto-") || strings.HasPrefix(base, "bounce")
		if auto != (got != "") {
			t.Errorf("%s: Silence = %q", base, got)
		}
		// Our server's SPF pass vouches for gmail.com; mutt-commands
		// has no Authentication-Results, and no DKIM signature.
		nodns := pbemtest.DNS{}
		if base == "gmail-alternative.eml" {
			if v := CheckSender(context.Background(), raw, m, cfg, nodns, false); !v.Aligned || v.Refuse {
				t.Errorf("gmail: %+v", v)
			}
		}
		if base == "mutt-commands.eml" {
			if v := CheckSender(context.Background(), raw, m, cfg, nodns, false); !v.Refuse {
				t.Errorf("mutt-commands has nothing to vouch for it: want a refusal under strict, got %+v", v)
			}
		}
	}
}

func TestRateLimit(t *testing.T) {
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	l := RateLimit{Max: 3, Per: time.Hour}
	tests := []struct {
		name string
		l    RateLimit
		sent []time.Time
		want bool
	}{
		{"none sent", l, nil, true},
		{"two in the hour", l, []time.Time{ago(time.Minute), ago(30 * time.Minute)}, true},
		{"three in the hour", l, []time.Time{ago(time.Minute), ago(30 * time.Minute), ago(59 * time.Minute)}, false},
		{"old ones do not count", l, []time.Time{ago(time.Minute), ago(2 * time.Hour), ago(3 * time.Hour)}, true},
		{"exactly one window ago does not count", l, []time.Time{ago(time.Hour), ago(time.Minute), ago(time.Second)}, true},
		{"zero limit allows", RateLimit{}, []time.Time{now, now, now, now}, true},
	}
	for _, tc := range tests {
		if got := tc.l.Allow(tc.sent, now); got != tc.want {
			t.Errorf("%s: Allow = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestStrangerReplyDue(t *testing.T) {
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	tests := []struct {
		name  string
		last  time.Time
		every time.Duration
		want  bool
	}{
		{"first time", time.Time{}, day, true},
		{"an hour ago", now.Add(-time.Hour), day, false},
		{"a day ago", now.Add(-day), day, true},
		{"never configured", time.Time{}, 0, false},
	}
	for _, tc := range tests {
		if got := StrangerReplyDue(tc.last, now, tc.every); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A person is an address with its +tag taken off, except in the domains
// where + is part of a mailbox's name.
func TestPerson(t *testing.T) {
	for _, c := range []struct {
		addr     string
		distinct []string
		want     string
	}{
		{"Eve+0@Evil.Example", nil, "eve@evil.example"},
		{"eve+a+b@evil.example", nil, "eve@evil.example"},
		{"eve@evil.example", nil, "eve@evil.example"},
		{"+eve@evil.example", nil, "+eve@evil.example"}, // no name before the tag
		{"eve+0@evil.example", []string{"EVIL.example"}, "eve+0@evil.example"},
		{"eve+0@ｅvil.example", []string{"evil.example"}, "eve+0@evil.example"},
		{"eve+0@mail.evil.example", []string{"evil.example"}, "eve@mail.evil.example"},
		{"\u017fam+x@example.org", nil, "\u017fam@example.org"}, // a lookalike stays a lookalike
	} {
		if got := Person(c.addr, c.distinct); got != c.want {
			t.Errorf("Person(%q, %q) = %q, want %q", c.addr, c.distinct, got, c.want)
		}
	}
}
