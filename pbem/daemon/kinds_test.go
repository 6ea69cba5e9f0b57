package daemon_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"mime"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store/storetest"
	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/pbemtest"
	"orrery/pbem/settings"
)

// TestEveryKindOfMailFits sends every kind of mail a player gets — the
// welcome, acks, refusals, HELP, LIST, RULES, STATUS, HISTORY, SETTINGS,
// notices (a GM message, a pause, a moved deadline, press), the answers
// to a wrong or missing secret and to a stranger, a report — for every
// ruleset, in English and in Russian, and reads them as the player would:
// every text/plain line at most 78 columns, no template debris, and in
// Russian a Russian frame.
func TestEveryKindOfMailFits(t *testing.T) {
	for _, rs := range games.All() {
		for _, language := range []string{"en", "ru"} {
			t.Run(rs.Info().Name+"-"+language, func(t *testing.T) {
				everyKind(t, rs, language)
			})
		}
	}
}

func everyKind(t *testing.T, rs engine.Ruleset, language string) {
	ctx := context.Background()
	// The players' language and zone are set before the game begins, so
	// the welcome is in them too.
	st := storetest.Open(t, storetest.Default())
	info := rs.Info()
	n := min(max(3, info.MinPlayers), info.MaxPlayers)
	names := []string{"ann", "bob", "cyd"}[:n]
	var specs []game.PlayerSpec
	for _, p := range names {
		addr := p + "@example.org"
		if _, err := settings.Put(ctx, st, addr, settings.Lang, language); err != nil {
			t.Fatal(err)
		}
		if _, err := settings.Put(ctx, st, addr, settings.TZ, "Asia/Tokyo"); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, game.PlayerSpec{Name: p, Email: addr, Lang: language})
	}
	h := rig{store: st, rulesets: games.All(),
		config: daemon.Config{RepliesPerHour: 1000, GM: "GM <gm@example.org>", GMSecret: "gm-secret"},
		game: &game.CreateRequest{ID: "k1", Ruleset: info.Name, Players: specs, DiceSecret: "kinds",
			Settings: &game.Settings{Early: true, TurnLength: 72 * time.Hour, Press: "signed", Vacation: "defaults", MaxVacation: 14 * 24 * time.Hour}},
	}.start(t)
	svc := h.d.Service()
	g := h.g
	tag := func(p string) string { return "[k1 " + h.secret(p) + "]" }
	// Two rounds of real orders by mail, from each awaited player, as a
	// bot would write them; the first player's first mail is wrong.
	r := rand.New(rand.NewPCG(7, 7))
	for round := 0; round < 2; round++ {
		g, _ = svc.Get(ctx, "k1")
		for _, p := range g.Prompts {
			if !p.Kind.Blocks() {
				continue
			}
			v, err := svc.View(ctx, "k1", p.Player)
			if err != nil {
				t.Fatal(err)
			}
			orders := rs.Bot(v, p, r)
			if round == 0 && p.Player == names[0] {
				h.handle(h.mail(p.Player+"@example.org", tag(p.Player), "FLY TO THE MOON\n"+orders))
			}
			h.handle(h.mail(p.Player+"@example.org", tag(p.Player), orders))
		}
	}
	ann := names[0] + "@example.org"
	h.handle(h.mail(ann, "help", "HELP "+info.Name))
	h.handle(h.mail(ann, "list", "LIST\nRULES "+info.Name))
	h.handle(h.mail(ann, tag(names[0]), "STATUS\nHISTORY\nSETTINGS"))
	h.handle(h.mail(ann, "set", "SET TZ Mars/Olympus"))
	h.handle(h.mail(ann, "[k1 wrongsecret]", "STATUS"))
	h.handle(h.mail(ann, "[k1]", "STATUS"))
	h.handle(h.mail(ann, tag(names[0]), "PRESS TO "+names[1]+"\nShall we share the spoils?\nEND"))
	h.handle(h.mail("stranger@example.org", "[k1]", "STATUS"))
	if _, _, err := svc.Message(ctx, "k1", "Turn 4 runs a day late: the server moves on Tuesday."); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.ExtendDeadline(ctx, "k1", 24*time.Hour, "a player is ill"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Pause(ctx, "k1", "holidays"); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	zoned := 0
	for _, m := range h.flush() {
		if len(m.To) == 0 || !strings.HasSuffix(m.To[0], "@example.org") || m.To[0] == "gm@example.org" {
			continue
		}
		subject := decodedHeader(m.Data, "Subject")
		kinds[header(m.Data, "X-Orrery-Kind")]++
		text := plainText(t, m.Data)
		if strings.Contains(text, " JST (") && strings.Contains(text, " UTC)") {
			zoned++ // the deadline in Tokyo time, UTC beside it
		}
		for i, l := range strings.Split(text, "\n") {
			if w := engine.Width(l); w > 78 {
				t.Errorf("%q to %s, line %d is %d columns: %q", subject, m.To[0], i+1, w, l)
			}
		}
		for _, bad := range []string{"<no value>", "%!", "{{", "\x0e", "\x0f", "\x11"} {
			if strings.Contains(text, bad) || strings.Contains(subject, bad) {
				t.Errorf("%q to %s holds %q:\n%s", subject, m.To[0], bad, text)
			}
		}
		if language == "ru" && m.To[0] != "stranger@example.org" {
			for _, en := range englishFrame {
				if strings.Contains(text, en) || strings.Contains(subject, en) {
					t.Errorf("%q to %s: the Russian mail says %q:\n%s", subject, m.To[0], en, text)
				}
			}
			if englishDate.MatchString(text) {
				t.Errorf("%q to %s: an English date: %q", subject, m.To[0], englishDate.FindString(text))
			}
			if !cyrillic.MatchString(subject) {
				t.Errorf("the subject %q of a Russian player's mail is not Russian", subject)
			}
		}
	}
	if zoned == 0 {
		t.Error("no mail shows a time in the players' zone (Asia/Tokyo) with UTC beside it")
	}
	for _, k := range []string{"welcome", "report", "reply", "notice"} {
		if kinds[k] == 0 {
			t.Errorf("no %s mail was sent (%v)", k, kinds)
		}
	}
}

var (
	cyrillic    = regexp.MustCompile(`\p{Cyrillic}`)
	englishDate = regexp.MustCompile(`\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-`)
)

// englishFrame are phrases of the English templates and engine notices
// that must not reach a Russian reader.
var englishFrame = []string{"Hello", "EVENTS", "DICE", "WHAT IS EXPECTED", "To answer", "Deadline:", "Still to send",
	"Seed of this step", "your orders", "Your orders", "accepted", "I found", "problem", "Players:", "Your secret",
	"The GM", "The deadline", "Press from", "this text", "Send HELP", "Not accepted", "Nothing from your mail", "This part of your mail",
	"Status", "History", "Welcome", "GAMES OPEN TO JOIN", "YOUR GAMES", "\nGAMES\n", "RULESETS"}

// plainText is the decoded text/plain part of a raw mail.
func plainText(t *testing.T, raw []byte) string {
	t.Helper()
	return strings.ReplaceAll(string(partOf(t, raw, "text/plain")), "\r\n", "\n")
}

// partOf is the first part of a raw mail of media type want, decoded.
func partOf(t *testing.T, raw []byte, want string) []byte {
	t.Helper()
	b, ok := pbemtest.Part(raw, want)
	if !ok {
		t.Fatalf("no %s part in\n%s", want, raw)
	}
	return b
}

func decodedHeader(raw []byte, name string) string {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	v, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get(name))
	if err != nil {
		return msg.Header.Get(name)
	}
	return v
}
