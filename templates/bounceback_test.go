package templates

import (
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/engine/lang"
)

// TestBouncedSeatNoticesInRussian: the sentences engine/game words about a
// seat kept while its mail bounced (issue 39) reach a Russian reader whole
// in Russian, the sentence quoted inside another and the list of steps
// too.
func TestBouncedSeatNoticesInRussian(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	told := "Mail to bob in demo1 bounces, so they get no reports: the seat plays its defaults, and if they do not write again within 3 steps the computer plays it from then on."
	cases := []struct{ kind, text, want string }{
		{"unreachable", told, "Письма игроку bob в demo1 не доходят, отчётов он не получает: место играет по умолчанию, а если он не напишет снова за 3 шага, дальше его играет компьютер."},
		{"unreachable", "Mail to bob in demo1 bounces, so they get no reports: the seat plays its defaults, and if they do not write again within 1 step it is open for anyone to take (JOIN demo1).",
			"если он не напишет снова за 1 шаг, его сможет занять любой (JOIN demo1)."},
		{"abandoned", "Mail to bob in demo1 still bounces after 5 steps played by defaults: the seat is marked abandoned and plays its defaults. Offer it to a replacement with: orrery game replace demo1 bob --email ADDRESS",
			"а его место сыграло по умолчанию уже 5 шагов: оно отмечено как брошенное"},
		{"back", "bob writes again in demo1: the seat is theirs as before, and the game waits for their orders again.", "bob снова пишет в demo1: место остаётся за ним"},
		{"reachable", "Mail to you bounced from Mon 2026-11-23 18:00 UTC, so you got no reports of demo1. Now that you write again, your seat bob is yours again and I write to you again. " +
			"Meanwhile your defaults were played at steps 4, 5 and 6; the GM and the other players were told: " + told,
			"Тем временем за вас по умолчанию сыграно: шаги 4, 5 и 6; ведущему и другим игрокам было сказано: Письма игроку bob в demo1 не доходят"},
		{"reachable", "Mail to you bounced from Mon 2026-11-23 18:00 UTC, so you got no reports of demo1. Now that you write again, your seat bob is yours again and I write to you again. " +
			"No step was played by your defaults meanwhile; the GM and the other players were told: " + told,
			"ваше место bob снова ваше, и я снова пишу вам. По умолчанию за это время не сыгран ни один шаг"},
		{"reachable", "Mail to you bounced from Mon 2026-11-23 18:00 UTC, so you got no reports of demo1. Now that you write again, your seat bob is yours again and I write to you again. " +
			"Meanwhile your defaults were played at step 7; the GM and the other players were told: " + told,
			"сыграно: шаг 7;"},
	}
	for _, c := range cases {
		d := sample("bob")
		d.Lang = lang.Russian
		d.Notice = &game.Notice{Kind: c.kind, Text: c.text}
		m, err := set.Render(Notice, d)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(m.Text), " ")
		if !strings.Contains(text, c.want) {
			t.Errorf("%s: the Russian text lacks %q:\n%s", c.kind, c.want, text)
		}
		for _, en := range []string{"Mail to", "bounces", "step", "writes again", "Meanwhile"} {
			if strings.Contains(text, en) {
				t.Errorf("%s: English left (%q):\n%s", c.kind, en, text)
			}
		}
	}
}
