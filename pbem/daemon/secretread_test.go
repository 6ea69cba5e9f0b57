package daemon_test

import (
	"strings"
	"testing"

	"orrery/engine/game"
)

// TestSecretWordSaysHowItWasRead: SECRET <word> asks for a secret when
// the word names a game and gives one otherwise; a mail that gives one to
// no game and asks nothing is answered with the reading and how to ask,
// in the reader's language, not with HELP.
func TestSecretWordSaysHowItWasRead(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	one(t, to(h.say("ann@example.org", "secret", "SECRET g7"), "ann@example.org"), "ann",
		"I read SECRET g7 as your secret, but there is no game g7 here",
		"to ask me for your secret in a game")
	h.handle(h.mail("bob@example.org", "settings", "SET LANG ru"))
	h.flush()
	one(t, to(h.say("bob@example.org", "secret", "SECRET g7"), "bob@example.org"), "bob",
		"я прочитал SECRET g7 как ваше секретное слово, но игры g7 здесь нет",
		"чтобы попросить у меня ваше секретное слово в игре,", "напишите SECRET и название игры")
	// Naming a game, it asks; refused, the answer says it was read as
	// asking, and how the word would be given as a secret.
	one(t, to(h.say("carl@example.org", "secret", "SECRET g2"), "carl@example.org"), "carl",
		"I read SECRET g2 as asking for your secret in game g2,", "if g2 is your own")
	h.handle(h.mail("dora@example.org", "settings", "SET LANG ru"))
	h.flush()
	one(t, to(h.say("dora@example.org", "secret", "SECRET g2"), "dora@example.org"), "dora",
		"я прочитал SECRET g2 как просьбу прислать ваше", "если g2 — ваше собственное")
	// Read as a wrong secret, the answer says so and how to ask.
	h.handle(h.mail("ann@example.org", "[g2]", "SECRET g7\nhold"))
	one(t, to(h.flush(), "ann@example.org"), "ann", "Wrong secret", `I read your line "SECRET g7" as your secret for game g2;`)
	h.handle(h.mail("bob@example.org", "[g2]", "SECRET g7\nhold"))
	one(t, to(h.flush(), "bob@example.org"), "bob", "Я прочитал вашу строку «SECRET g7» как ваше")
	h.handle(h.mail("ann@example.org", "[g2 g7]", "hold"))
	if m := one(t, to(h.flush(), "ann@example.org"), "ann", "Wrong secret"); strings.Contains(m, "I read your line") {
		t.Errorf("a secret from the subject is said to come from a line:\n%s", m)
	}
	// Naming a game, it asks.
	h.handle(h.mail("ann@example.org", "secret", "SECRET g2"))
	some(t, to(h.flush(), "ann@example.org"), "ann", "Your secret in g2 is on its way")
}
