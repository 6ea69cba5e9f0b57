package templates

import (
	"sort"
	"strings"
	"testing"

	"orrery/engine/dice"
	"orrery/engine/game"
)

// noticeTexts is a text of each notice kind, worded as engine/game and
// pbem/daemon word them.
var noticeTexts = map[string]string{
	"reminder":       "Reminder: your orders for demo1 are due by Mon 2026-11-23 18:00 UTC (2 hours from now).",
	"late":           "The deadline of demo1 passed and your orders have not arrived. They are still taken until Mon 2026-11-23 24:00 UTC; then your defaults apply.",
	"late-others":    "Still waiting in demo1 for: bob (grace until Mon 2026-11-23 24:00 UTC).",
	"deadline":       "The deadline of demo1 moves from Mon 2026-11-23 18:00 UTC to Wed 2026-11-25 18:00 UTC: bob is ill.",
	"paused":         "The GM paused demo1: holidays. Deadlines wait until the game resumes; orders are still taken.",
	"resumed":        "The GM resumed demo1. The deadline moves by the 2 days the game was paused, to Wed 2026-11-25 18:00 UTC.",
	"rollback":       "The GM rolled demo1 back from step 4 to step 3 (turn 3, production): bob's orders were misread. Orders sent since are kept for the record but not used; send your orders again. The steps played again use new dice seeds.",
	"message":        "Turn 4 runs a day late: the server moves on Tuesday.",
	"press":          "Press from ann to bob:",
	"replaced":       "bob of demo1 is now played by a new player.",
	"kicked":         "The GM removed bob from demo1; the seat plays its defaults from now on.",
	"resigned":       "bob resigned from demo1; the seat plays its defaults from now on.",
	"joined":         "bob@example.org joined demo1 as bob: 2 of 3 seats taken. The game starts when all are taken.",
	"returned":       "Welcome back to demo1: your seat bob is yours again from step 5. The bot has not played a step of it yet.",
	"vacation":       "Vacation noted from Tue 2026-12-01 00:00 UTC to Tue 2026-12-08 00:00 UTC: your defaults apply while you are away.",
	"wait":           "WAIT noted: demo1 will not resolve early; it waits for Mon 2026-11-23 18:00 UTC.",
	"signup":         "demo1 is open for players: 1 of 3 seats taken.",
	"abandoned":      "bob has sent no orders for 3 steps in a row; the seat is marked abandoned and plays its defaults. Offer it to a replacement with: orrery game replace demo1 bob --email ADDRESS",
	"gm":             "Paused demo1.",
	"gm-query":       "orrery game players demo1\n\nSEAT     ADDRESS                         SECRET\nann      ann@example.org                 k7f3q\nbob      bob@example.org                 q2w9e",
	"resign":         "You resigned from game demo1; your seat plays its defaults from now on.",
	"press-sent":     "Your press in game demo1 went to bob.",
	"observe":        "You now receive the public reports of game demo1: the events every player sees, never a player's private view. Send UNOBSERVE demo1 to stop.",
	"unobserve":      "You no longer receive the reports of game demo1. If you did not ask for this, someone wrote in your name: send OBSERVE demo1 to receive them again.",
	"seat-lost":      "The GM gave your seat bob in demo1 to the computer: away until March.",
	"seat-open":      "You have sent no orders in demo1 for 3 steps in a row: your seat bob is offered to other players. Until someone takes it, orders you send still count.",
	"taken":          "dora@example.org took the open seat bob of demo1.",
	"unreachable":    "Mail to bob in demo1 bounces, so they get no reports: the computer plays the seat from now on.",
	"undelivered":    "I gave up on a mail to bob@example.org (game demo1, queued Mon 2026-11-23 18:00 UTC); the last error was: 550 5.1.1 <bob@example.org>: Recipient address rejected",
	"complaint":      "bob@example.org marked a mail of mine about game demo1 as spam (feedback loop: Yahoo!-Mail-Feedback/2.0): I send that address no more reminders, digests or observer reports. It still gets its games' reports and the answers to its own mail; SET REMINDERS on from it starts the rest again.",
	"invite":         "ann@example.org invites you to play demo1, a game of Prosper or Perish: 1 of 4 seats are taken. To take a seat, answer this mail with the line JOIN demo1. Nothing more comes to you about it unless you do.",
	"opened":         "You opened game demo1 (Prosper or Perish) with 4 seats, and hold seat ann. Others take a seat with JOIN demo1; the game starts when every seat is taken, or when you send START demo1 with at least 2 players. INVITE demo1 and their addresses asks others to play.",
	"secret-sent":    "If seat bob of demo1 is yours, its secret is on its way to the address the seat is held with, not to this one.",
	"start":          "Game demo1 starts with 3 players: every player's welcome mail follows.",
	"invited":        "I invited dora@example.org, eve@example.org to demo1.",
	"back":           "bob writes again in demo1: the seat is theirs as before, and the game waits for their orders again.",
	"reachable":      "Mail to you bounced (3 hard bounces within 14 days, the last 5.2.2 552 5.2.2 Mailbox full), so I stopped writing to you on Mon 2026-11-23 18:00 UTC. Now that you write again, I write to you again. A seat you held may have gone to another player meanwhile: MY GAMES shows yours.",
	"ahead":          "Your orders held for turn 2 of game demo1 were never applied: the game is at turn 3 and was not asked anything of you in that turn.",
	"ahead-rejected": "Your orders held for turn 3 of game demo1 no longer fit, so none of them were applied; send your orders for the turn as usual. What did not fit:\nline 1: no planet named 'Rigle'",
	"ahead-applied":  "Your orders held for turn 3 of game demo1 are now your orders for it:",
	"ahead-held":     "Your orders for turn 3 of game demo1 are held: they apply when that turn asks you for orders, checked then against the position as it stands.",
	"unsubscribed":   "Your reports now come once a day, in the digest, instead of one mail a step (SET DIGEST off undoes it). Game demo1 goes on with your seat bob: VACATION demo1 FROM first-day TO last-day plays your defaults while you are away, RESIGN demo1 leaves the game, and the GM can give your seat to the computer.",
	"ping":           "Your mail reached me from bob@example.org. It is authenticated: dkim vouches for your domain example.org, as DMARC asks. Under this server's rule (sender_auth dmarc) I accept your mail; with a seat's secret it acts for that seat. Add orrery@example.org to your contacts, so that my reports are not filtered as spam.",
}

// noticeSaid is what a player wrote, by the kinds that carry it: a line
// that mimics the bot's own, and a bare CR that some clients show as a
// line break, must stay marked as the player's.
var noticeSaid = map[string]string{
	"press":         "Meet me at Mars.\n\nGame news: the GM has moved the deadline.\rPress from cy to bob: \u202eall is well",
	"ahead-applied": "BUILD MINE AT RIGEL",
}

// noticeReceipt is the receipt of the kinds that carry one: held orders
// applied are checked as the orders an ack answers.
var noticeReceipt = map[string]*dice.Part{
	"ahead-applied": func() *dice.Part {
		p := dice.Part{Head: "ann build:3:ann sent", Hidden: true, To: []string{"ann"}, Salt: "0f3a9c1e5b7d2f4608a1c3e5b7d9f1a2", Lines: []string{"BUILD MINE AT RIGEL"}}.Sealed()
		return &p
	}(),
}

// TestNoticeGolden pins the notice mail of every kind in NoticeTitles for
// each kind of addressee: two players (their own secret in the tag) and
// the GM or an observer (no seat, no secret). One golden file per
// addressee holds every kind, in the kinds' order.
func TestNoticeGolden(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for k := range NoticeTitles {
		kinds = append(kinds, k)
		if noticeTexts[k] == "" {
			t.Errorf("notice kind %q has no sample text here", k)
		}
	}
	sort.Strings(kinds)
	for _, who := range []string{"ann", "bob", ""} {
		name := "notices." + who
		if who == "" {
			name = "notices.gm"
		}
		t.Run(name, func(t *testing.T) {
			var text, html strings.Builder
			for _, kind := range kinds {
				d := sample(who)
				d.Deadline = d.Deadline.AddDate(0, 0, 2)
				d.Notice = &game.Notice{Kind: kind, Text: noticeTexts[kind], Said: noticeSaid[kind], Receipt: noticeReceipt[kind]}
				m, err := set.Render(Notice, d)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasSuffix(m.Subject, "] "+NoticeTitles[kind]) {
					t.Errorf("%s: subject %q, want the tag and %q", kind, m.Subject, NoticeTitles[kind])
				}
				if who != "" && !strings.Contains(m.Subject, "[demo1 "+d.Secret+"]") {
					t.Errorf("%s: subject %q lacks %s's tag with the secret", kind, m.Subject, who)
				}
				if kind == "gm-query" {
					// Command output is shown as printed, not reflowed.
					if !strings.Contains(m.Text, noticeTexts[kind]+"\n") || !strings.Contains(m.HTML, "<pre") {
						t.Errorf("gm-query output not verbatim:\n%s\n%s", m.Text, m.HTML)
					}
				} else if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), strings.Join(strings.Fields(noticeTexts[kind]), " ")) {
					t.Errorf("%s: the text lacks the notice:\n%s", kind, m.Text)
				}
				if said := noticeSaid[kind]; said != "" {
					for _, l := range strings.Split(m.Text, "\n") {
						if strings.Contains(l, "Game news") || strings.Contains(l, "Mars") || strings.Contains(l, "cy to bob") {
							if !strings.HasPrefix(l, "> ") {
								t.Errorf("%s: a player's line not marked as theirs: %q", kind, l)
							}
						}
					}
					if strings.ContainsAny(m.Text+m.HTML, "\r\u202e") || !strings.Contains(m.HTML, "<blockquote") {
						t.Errorf("%s: the player's words are not cleaned and quoted:\n%s\n%s", kind, m.Text, m.HTML)
					}
				}
				if r := noticeReceipt[kind]; r != nil && who != "" {
					if !strings.Contains(m.Text, "RECEIPT\n") || !strings.Contains(m.Text, "  "+r.Hash+"\n") || !strings.Contains(m.HTML, r.Hash) || !strings.Contains(m.Text, "sha256sum\n") {
						t.Errorf("%s: the receipt %s is not in the mail:\n%s", kind, r.Hash, m.Text)
					}
				}
				head := "=== " + kind + ": " + m.Subject + "\n"
				text.WriteString(head + m.Text + "\n")
				html.WriteString(head + m.HTML + "\n")
			}
			checkGolden(t, name, Mail{Subject: "every notice kind", Text: text.String(), HTML: html.String()})
		})
	}
	if set, _ := New(""); set != nil {
		d := sample("ann")
		d.Notice = &game.Notice{Kind: "novel", Text: "x"}
		if m, err := set.Render(Notice, d); err != nil || !strings.HasSuffix(m.Subject, "Game news: novel") {
			t.Errorf("a kind with no title: %q %v", m.Subject, err)
		}
	}
}
