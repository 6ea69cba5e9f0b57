package daemon_test

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/game"
	"orrery/games/burning"
	"orrery/games/prosper"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/settings"
)

// TestAckBeforeReport: the orders that complete a step are acknowledged
// before that step's report, and the ack says the report follows rather
// than inviting changes.
func TestAckBeforeReport(t *testing.T) {
	h := newHarness(t)
	h.flush()
	// An ack of orders that complete nothing invites changes.
	sent := h.say("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 2")
	first := one(t, to(sent, "ann@example.org"), "ann", "You may send new orders")
	if strings.Contains(first, "the report follows") {
		t.Fatalf("an ack of orders that complete nothing says the report follows:\n%s", first)
	}
	bob := to(h.say("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 3"), "bob@example.org")
	if len(bob) != 2 {
		t.Fatalf("bob got %d mails, want the ack and the report", len(bob))
	}
	if !strings.Contains(bob[0], "X-Orrery-Kind: reply") || !strings.Contains(bob[0], "These orders completed the step; the report follows.") ||
		strings.Contains(bob[0], "You may send new orders") || !strings.Contains(bob[0], "Orders received: the step is complete") {
		t.Errorf("bob's first mail is not the ack saying the report follows:\n%s", bob[0])
	}
	if !strings.Contains(bob[1], "X-Orrery-Kind: report") {
		t.Errorf("bob's second mail is not the report:\n%s", bob[1])
	}
	// Handled again (a crash before the mail was filed): no second ack.
	if again := to(h.say("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 1"), "bob@example.org"); len(again) != 1 {
		t.Errorf("%d mails to bob for his next orders, want 1", len(again))
	}
}

// TestSettingsByMail: SET and SETTINGS change and show the sender's
// settings, each with how to change it; the next mails are in the chosen
// language and zone.
func TestSettingsByMail(t *testing.T) {
	h := newHarness(t)
	h.flush()
	got := to(h.say("ann@example.org", "settings", "SET LANG ru\nSET TZ Europe/Moscow\nSETTINGS"), "ann@example.org")
	if len(got) != 1 {
		t.Fatalf("%d answers to SET, want one", len(got))
	}
	// A setting already as its example sets it shows the way back.
	for _, want := range []string{"Я изменил LANG, TZ", "LANG     ru (русский)", "Europe/Moscow", "SET TZ UTC", "SET LANG en", "SET PICTURES off"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("the settings answer lacks %q:\n%s", want, got[0])
		}
	}
	s, err := settings.Load(context.Background(), h.st, "ann@example.org")
	if err != nil || s["LANG"] != "ru" || s["TZ"] != "Europe/Moscow" {
		t.Fatalf("stored settings %v, %v", s, err)
	}
	ack := to(h.say("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 2"), "ann@example.org")
	if len(ack) != 1 || !strings.Contains(ack[0], "Ваши приказы для игры g1 приняты.") || !strings.Contains(ack[0], "Ещё не прислали: bob") {
		t.Errorf("ann's ack is not in Russian:\n%s", ack)
	}
	// A wrong value names the line and the fix, and changes nothing.
	bad := to(h.say("ann@example.org", "settings", "SET TZ Mars/Olympus"), "ann@example.org")
	if len(bad) != 1 || !strings.Contains(bad[0], "строка 1, вы написали: SET TZ Mars/Olympus") || !strings.Contains(bad[0], "Asia/Tokyo") {
		t.Errorf("a bad zone:\n%s", bad)
	}
	for _, want := range []string{"нет часового пояса \"Mars/Olympus\"", "напишите пояс из базы tz"} {
		if len(bad) == 1 && !strings.Contains(bad[0], want) {
			t.Errorf("the answer to a bad zone lacks %q:\n%s", want, bad[0])
		}
	}
	// Command lines that do not parse are refused in Russian too.
	h.handle(h.mail("ann@example.org", "commands", "SET COLOUR blue\nSET REMINDERS maybe\nNEW\nVACATION g1 FROM 2027-01-03 TO 2026-12-20\nVACATION g1 FROM soon TO later"))
	bad = to(h.flush(), "ann@example.org")
	for _, want := range []string{"нет настройки \"COLOUR\"", "напишите SET, настройку и её значение", "после NEW нужен набор правил",
		"напишите NEW, набор правил", "последний день VACATION раньше первого", "даты VACATION пишутся как год-месяц-день", "напишите VACATION, игру и две даты"} {
		if len(bad) != 1 || !strings.Contains(bad[0], want) {
			t.Errorf("the answer to bad command lines lacks %q:\n%s", want, bad)
		}
	}
	if s, _ := settings.Load(context.Background(), h.st, "ann@example.org"); s["TZ"] != "Europe/Moscow" {
		t.Errorf("a bad value changed the zone to %q", s["TZ"])
	}
	// bob is untouched: English.
	for _, m := range to(h.say("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 1"), "bob@example.org") {
		if !strings.Contains(m, "Hello bob,") {
			t.Errorf("bob's mail is not in English:\n%s", m)
		}
	}
}

// TestPictureDrawnWhenSent: with a picture drawer, each report carries
// the board as a PNG inline by cid (drawn when the mail is sent, from the
// reader's own view), and report.json.
func TestPictureDrawnWhenSent(t *testing.T) {
	h, drawn := newHarnessWithPictures(t)
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 2"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 3"))
	sent := h.flush()
	var report string
	for _, m := range sent {
		if header(m.Data, "X-Orrery-Kind") == "report" && m.To[0] == "ann@example.org" {
			report = strings.ReplaceAll(string(m.Data), "=\r\n", "") // quoted-printable soft breaks
		}
	}
	for _, want := range []string{"multipart/related", "Content-Type: image/png", "src=3D\"cid:board.g1.0.1@pbem.test\"",
		"alt=3D\"the race track as ann sees it\"", "report.json", "application/json"} {
		if !strings.Contains(report, want) {
			t.Errorf("ann's report lacks %q", want)
		}
	}
	if n := drawn(); n["ann"] < 2 || n["bob"] < 2 {
		t.Errorf("pictures drawn: %v (each reader's own view, described when queued and drawn when sent)", n)
	}
}

// TestNoPictureForAReaderWhoSaidSo: after SET PICTURES off, a player's
// reports come without the board picture (neither drawn nor described,
// the HTML part without its <img>), while the other players' keep theirs.
func TestNoPictureForAReaderWhoSaidSo(t *testing.T) {
	h, drawn := newHarnessWithPictures(t)
	h.flush()
	h.handle(h.mail("ann@example.org", "settings", "SET PICTURES off"))
	if s, _ := settings.Load(context.Background(), h.st, "ann@example.org"); !s.PicturesOff() {
		t.Fatalf("SET PICTURES off did not take: %v", s)
	}
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 2"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 3"))
	reports := map[string]string{}
	for _, m := range h.flush() {
		if header(m.Data, "X-Orrery-Kind") == "report" {
			reports[m.To[0]] = strings.ReplaceAll(string(m.Data), "=\r\n", "") // quoted-printable soft breaks
		}
	}
	ann, bob := reports["ann@example.org"], reports["bob@example.org"]
	if ann == "" || bob == "" {
		t.Fatalf("reports sent to %v, want ann and bob", slices.Collect(maps.Keys(reports)))
	}
	for _, unwanted := range []string{"image/png", "cid:board", "<img"} {
		if strings.Contains(ann, unwanted) {
			t.Errorf("ann said SET PICTURES off, and her report holds %q", unwanted)
		}
	}
	for _, want := range []string{"text/html", "report.json"} {
		if !strings.Contains(ann, want) {
			t.Errorf("ann's report lacks %q: only the picture should go", want)
		}
	}
	if !strings.Contains(bob, "Content-Type: image/png") || !strings.Contains(bob, "cid:board.g1.0.1@pbem.test") {
		t.Error("bob's report lost its picture too")
	}
	if n := drawn(); n["ann"] != 0 || n["bob"] < 2 {
		t.Errorf("pictures drawn or described: %v (none of ann's view; bob's described when queued and drawn when sent)", n)
	}
}

// newHarnessWithPictures is a harness whose mailer draws a stand-in PNG
// of each view (its alt text names the reader) and whose queue draws them
// when it sends; drawn tells how many times each reader's view was drawn
// or described so far.
func newHarnessWithPictures(t *testing.T) (*harness, func() map[string]int) {
	var mu sync.Mutex // the outbox draws a batch's pictures at once
	drawn := map[string]int{}
	h := rig{pictures: true}.start(t)
	h.d.Mailer().Pictures = daemon.PictureFunc(func(v engine.View) ([]byte, string, bool) {
		mu.Lock()
		drawn[v.Player()]++
		mu.Unlock()
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x03\x20\x00\x00\x01\x00"), v.Player()...)
		return png, "the race track as " + v.Player() + " sees it", true
	})
	return h, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(drawn)
	}
}

// TestBurningLanguageFollowsTheAddress: Burning's own LANG order sets the
// address's language, and SET LANG sets the language the game writes in.
func TestBurningLanguageFollowsTheAddress(t *testing.T) {
	ctx := context.Background()
	h := rig{rulesets: []engine.Ruleset{burning.Ruleset()}, queue: &outbox.Options{},
		game: &game.CreateRequest{ID: "b1", Ruleset: "burning",
			Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}},
	}.start(t)
	d, st := h.d, h.st
	h.flush()
	h.handle(h.mail("ann@example.org", "[b1 "+h.secret("ann")+"]", "LANG RU"))
	if s, _ := settings.Load(ctx, st, "ann@example.org"); s["LANG"] != "ru" {
		t.Errorf("ann's LANG RU did not set her address's language: %v", s)
	}
	replies := 0
	for _, m := range to(h.flush(), "ann@example.org") {
		if header(m2raw(m), "X-Orrery-Kind") == "reply" {
			replies++
			if !strings.Contains(m, "Здравствуйте, ann!") {
				t.Errorf("the answer to LANG RU is not in Russian:\n%s", m)
			}
		}
	}
	if replies != 1 {
		t.Errorf("%d answers to LANG RU", replies)
	}
	lang := func(p string) string {
		v, err := d.Service().View(ctx, "b1", p)
		if err != nil {
			t.Fatal(err)
		}
		return burning.Ruleset().(engine.Languages).ViewLanguage(v)
	}
	if lang("bob") != "en" {
		t.Fatalf("bob starts in %s", lang("bob"))
	}
	h.handle(h.mail("bob@example.org", "settings", "SET LANG ru"))
	h.flush()
	if got := lang("bob"); got != "ru" {
		t.Errorf("after SET LANG ru the game writes to bob in %s", got)
	}
}

// m2raw gives back the header block of a mail as to() returns it.
func m2raw(m string) []byte {
	head, _, _ := strings.Cut(m, "\n\n")
	return []byte(head + "\r\n\r\n")
}

// TestPictureInTheReadersLanguage: a ruleset that words its views only
// when they are shown (Prosper) gets its board picture drawn for the
// reader's language too, both when the mail is queued (its description)
// and when it is sent (the PNG); another reader of the same game keeps
// English.
func TestPictureInTheReadersLanguage(t *testing.T) {
	ctx := context.Background()
	h := rig{rulesets: []engine.Ruleset{prosper.Ruleset()}, pictures: true, noGame: true}.start(t)
	st, d := h.st, h.d
	cyrillic := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r >= 'а' && r <= 'я' })
	}
	var mu sync.Mutex            // the outbox draws a batch's pictures at once
	drawn := map[string][]bool{} // reader: whether each view drawn was Russian
	d.Mailer().Pictures = daemon.PictureFunc(func(v engine.View) ([]byte, string, bool) {
		ru := cyrillic(v.Status())
		mu.Lock()
		drawn[v.Player()] = append(drawn[v.Player()], ru)
		mu.Unlock()
		alt := "the board"
		if ru {
			alt = "доска"
		}
		return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x03\x20\x00\x00\x01\x00"), alt...), alt, true
	})
	if _, err := settings.Put(ctx, st, "ann@example.org", "LANG", "ru"); err != nil {
		t.Fatal(err)
	}
	g, err := d.Service().Create(ctx, game.CreateRequest{ID: "p1", Ruleset: "prosper",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	h.g = g
	sent := h.flush()
	alts := map[string]string{}
	for _, m := range sent {
		if kind := header(m.Data, "X-Orrery-Kind"); kind == "welcome" || kind == "report" {
			raw := strings.ReplaceAll(string(m.Data), "=\r\n", "")
			if !strings.Contains(raw, "Content-Type: image/png") {
				t.Errorf("the %s to %s has no picture", kind, m.To[0])
			}
			alts[m.To[0]] += raw
		}
	}
	if !strings.Contains(alts["ann@example.org"], `alt=3D"=D0=B4=D0=BE=D1=81=D0=BA=D0=B0"`) && !strings.Contains(alts["ann@example.org"], `alt="доска"`) {
		t.Errorf("ann's picture is not described in Russian")
	}
	if !strings.Contains(alts["bob@example.org"], `alt=3D"the board"`) {
		t.Errorf("bob's picture is not described in English")
	}
	for reader, want := range map[string]bool{"ann": true, "bob": false} {
		if len(drawn[reader]) < 2 {
			t.Errorf("%s's view drawn %d times, want at least twice (described when queued, drawn when sent)", reader, len(drawn[reader]))
		}
		for i, ru := range drawn[reader] {
			if ru != want {
				t.Errorf("%s's picture %d drawn in Russian: %v, want %v", reader, i+1, ru, want)
			}
		}
	}
}

// TestPictureDrawnFromTheViewQueued: the picture of a report this process
// queued is drawn from the view it was described from, not from the step
// read again (a transaction a picture on PostgreSQL); another process
// (another daemon on the store, keeping no views) draws the same picture
// from the store; and a step rolled back since is drawn by neither.
func TestPictureDrawnFromTheViewQueued(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	seen := map[string][]engine.View{} // each reader's views, described and drawn
	draw := daemon.PictureFunc(func(v engine.View) ([]byte, string, bool) {
		mu.Lock()
		seen[v.Player()] = append(seen[v.Player()], v)
		mu.Unlock()
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x03\x20\x00\x00\x01\x00"), v.Board()...)
		return png, "the board", true
	})
	h := newHarness(t)
	h.d.Mailer().Pictures = draw
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 2"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 3"))
	pic := outbox.Picture{Game: "g1", Epoch: 0, Step: 1, Player: "ann", ContentID: "board.g1.0.1@pbem.test", Name: "g1-turn2.png"}
	kept, err := h.d.Picture(ctx, pic)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	ann := slices.Clone(seen["ann"])
	mu.Unlock()
	if len(ann) != 2 || ann[0] != ann[1] {
		t.Errorf("ann's picture was drawn from %d views, not the one described when her report was queued", len(ann))
	}
	// Another process on the same store keeps no views: it reads the step.
	other := rig{store: h.st, server: h.srv, noGame: true}.start(t).d
	other.Mailer().Pictures = draw
	read, err := other.Picture(ctx, pic)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(kept, read) || !bytes.Contains(read, []byte("ann")) {
		t.Errorf("the picture from the kept view (%q) and from the store (%q) differ", kept[24:], read[24:])
	}
	if _, _, err := h.d.Service().Rollback(ctx, "g1", 0, "test"); err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*daemon.Daemon{"this process": h.d, "the other": other} {
		if _, err := d.Picture(ctx, pic); err == nil {
			t.Errorf("%s drew the picture of a step rolled back since", name)
		}
	}
}

// TestSeatsPicturesDrawnFromEachOther: a daemon's pictures are drawn by a
// painter (daemon.NewViewPictures), each seat's picture of a step from
// another seat's just drawn. What each seat is sent is the very PNG its
// own view's mail picture draws on its own, and at least one was drawn
// from another.
func TestSeatsPicturesDrawnFromEachOther(t *testing.T) {
	ctx := context.Background()
	seats := []string{"ann", "bob", "cy", "di"}
	var specs []game.PlayerSpec
	for _, p := range seats {
		specs = append(specs, game.PlayerSpec{Name: p, Email: p + "@example.org"})
	}
	h := rig{rulesets: []engine.Ruleset{prosper.Ruleset()}, pictures: true,
		game: &game.CreateRequest{ID: "p4", Ruleset: "prosper", Players: specs}}.start(t)
	d := h.d
	sent := map[string][]byte{}
	for _, m := range h.flush() {
		if header(m.Data, "X-Orrery-Kind") == "welcome" {
			sent[m.To[0]] = partOf(t, m.Data, "image/png")
		}
	}
	for _, p := range seats {
		v, err := d.Service().View(ctx, "p4", p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := v.(engine.Drawer).Picture().Mail().Scaled(draw.MailScale).PNG()
		if err != nil {
			t.Fatal(err)
		}
		if got := sent[p+"@example.org"]; !bytes.Equal(got, want) {
			t.Errorf("%s was sent a picture of %d bytes, not the %d her view draws", p, len(got), len(want))
		}
	}
	whole, another, kept, again := d.PicturesDrawn()
	if another == 0 || whole+another != int64(len(seats)) {
		t.Errorf("pictures drawn whole / from another: %d / %d, want %d in all and some from another", whole, another, len(seats))
	}
	if kept != int64(len(seats)) || again != 0 {
		t.Errorf("pictures drawn from a kept view / from the step read again: %d / %d, want all from kept views", kept, again)
	}
}
