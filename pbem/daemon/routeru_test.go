package daemon_test

import (
	"context"
	"strings"
	"testing"

	"orrery/engine/game"
)

// TestRouteRefusalsInRussian: a Russian player's mail that the router
// refuses (a GAME or SECRET line without its word, a PRESS without END,
// two games, two secrets, an unknown command) is answered in Russian,
// why and how to fix it, with no English sentence around the commands.
func TestRouteRefusalsInRussian(t *testing.T) {
	h := newHarness(t)
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g2", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "cy", Email: "cy@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	// carl plays no game: his unknown commands are not taken for
	// orders that lost their subject's tag.
	h.handle(h.mail("ann@example.org", "settings", "SET LANG ru"))
	h.handle(h.mail("carl@example.org", "settings", "SET LANG ru"))
	h.flush()
	tag := "[g1 " + h.secret("ann") + "]"
	for _, c := range []struct {
		from, subject, body string
		want, not           []string
	}{
		{"ann@example.org", "hello", "GAME\nSTATUS g1",
			[]string{"после GAME нужно одно имя игры", "напишите так: GAME demo1"}, []string{"needs one game id", "write it like"}},
		{"ann@example.org", tag, "SECRET a b",
			[]string{"после SECRET нужно одно слово — ваш секрет", "приветственном письме"}, []string{"needs one word", "welcome mail"}},
		{"ann@example.org", tag, "PRESS TO bob\nhello bob",
			[]string{"у команды PRESS нет строки END", "а после него — строку END"}, []string{"has no END line", "write the text below"}},
		{"ann@example.org", "[g1] [g2]", "STATUS",
			[]string{"в теме названы 2 игры: g1, g2", "по одному письму на каждую игру"}, []string{"the subject names", "send one mail"}},
		{"ann@example.org", tag, "GAME g2\npush 1",
			[]string{"в этой строке названа игра g2, а в теме — g1"}, []string{"this line names", "send one mail"}},
		{"ann@example.org", tag, "SECRET zzzzzz1\npush 1",
			[]string{"второй, другой секрет (в теме указан другой)", "укажите секрет один раз"}, []string{"second, different", "give your secret"}},
		// A stranger's answers are few: one mail with both.
		{"carl@example.org", "hello", "STATSU g1\npush 1",
			[]string{"неизвестная команда \"STATSU\"", "вы имели в виду STATUS?", "неизвестная команда \"PUSH\"",
				"команды: HELP, LIST,", "START и INVITE", "чтобы прислать приказы"},
			[]string{"did you mean", "the commands are", "START and INVITE", "to send orders"}},
	} {
		t.Run(c.body, func(t *testing.T) {
			got := to(h.say(c.from, c.subject, c.body), c.from)
			answerSays(t, got, c.want, c.not)
		})
	}
}

// TestCommandRefusalsInRussian: the refusals of commands that parsed but
// cannot be done (a ruleset not here, a page past the last, CONFIRM with
// nothing held, a GM command from a player) are Russian for a Russian
// player.
func TestCommandRefusalsInRussian(t *testing.T) {
	h := newHarness(t)
	h.handle(h.mail("ann@example.org", "settings", "SET LANG ru"))
	h.flush()
	tag := "[g1 " + h.secret("ann") + "]"
	for _, c := range []struct {
		body      string
		want, not []string
		subject   string
	}{
		{"RULES nosuch", []string{`нет набора правил "nosuch" (известны: toy)`, "пришлите LIST, чтобы увидеть наборы правил"}, []string{"no ruleset", "send LIST"}, ""},
		{"HELP nosuch", []string{`нет набора правил "nosuch"`}, []string{"no ruleset", "send LIST"}, ""},
		{"LIST page 9", []string{"есть только 1 страница", "пришлите LIST, чтобы получить первую страницу"}, []string{"there are only", "send LIST"}, ""},
		{"CONFIRM", []string{"нет ваших задержанных приказов", "CONFIRM работает в ответе"}, []string{"no held orders", "works in a reply"}, ""},
		{"ORDERS g1 TURN 1\npush 1", []string{"игра g1 идёт на ходу 1: приказы на ход 1 присылают без TURN, как обычно"}, []string{"is at turn", "as usual"}, tag},
		{"GM PAUSE g1", []string{"командам ведущего нужны адрес ведущего и его секрет", "со строкой SECRET и секретом ведущего"}, []string{"GM commands need", "send from the GM"}, ""},
	} {
		t.Run(c.body, func(t *testing.T) {
			subject := c.subject
			if subject == "" {
				subject = "hello"
			}
			got := to(h.say("ann@example.org", subject, c.body), "ann@example.org")
			answerSays(t, got, c.want, c.not)
		})
	}
}

// TestGMRefusalsInRussian: a GM who reads Russian gets the refusals of
// GM lines and the answers of GM changes in Russian.
func TestGMRefusalsInRussian(t *testing.T) {
	h, _ := clocked(t, game.DefaultSettings())
	h.handle(h.mail("Game Master <"+gmAddr+">", "settings", "SET LANG ru"))
	h.flush()
	for _, c := range []struct {
		body      string
		want, not []string
	}{
		{"GM DEADLINE g2 soon", []string{`"soon" — ни +длительность, ни время`, "напишите +24h или время UTC"}, []string{"is neither", "write +24h"}},
		{"GM ROLLBACK g2", []string{"после GM ROLLBACK нужны TURN и номер", "напишите GM ROLLBACK demo1 TURN 3 и причину"}, []string{"needs TURN", "write GM"}},
		{"GM OBSERVE g2", []string{"после GM OBSERVE нужен адрес", "напишите GM OBSERVE g2 olga@example.org или"}, []string{"needs an address", "write GM"}},
		{"GM ADVANCE g2", []string{"GM ADVANCE g2: выполнять было нечего — ещё ждём ann, bob"}, []string{"nothing was due"}},
		{"GM SHOW g2 please", []string{"после GM SHOW нужна игра"}, []string{"takes a game", "write GM"}},
		{"GM RESUME g2", []string{"игра g2 не приостановлена"}, []string{"is not paused"}},
		{"GM DEADLINE g2 2020-01-01T10:00 too late", []string{"новый срок ср 2020-01-01 10:00 UTC — не в будущем"}, []string{"not in the future", "Wed"}},
	} {
		t.Run(c.body, func(t *testing.T) {
			h.gm(c.body)
			got := to(h.flush(), gmAddr)
			answerSays(t, got, c.want, c.not)
		})
	}
}

// TestGMReportInRussian: the GM's report of refused GM commands is in
// the GM's language.
func TestGMReportInRussian(t *testing.T) {
	h, _ := clocked(t, game.DefaultSettings())
	h.handle(h.mail("Game Master <"+gmAddr+">", "settings", "SET LANG ru"))
	h.flush()
	h.handle(h.mail("Game Master <"+gmAddr+">", "guess", "SECRET guess-a\nGM PAUSE g2 mine now"))
	var report string
	for _, m := range to(h.flush(), gmAddr) {
		if strings.Contains(m, "gm-alert") {
			report = strings.Join(strings.Fields(m), " ")
		}
	}
	for _, w := range []string{"Здравствуйте!", "1 команда ведущего отклонена с 2026-11-22 12:00 UTC", "1 — от " + gmAddr + " (ваш адрес, возможно, подделанный)", "не чаще раза в сутки"} {
		if !strings.Contains(report, w) {
			t.Errorf("the GM's report lacks %q:\n%s", w, report)
		}
	}
	for _, w := range []string{"refused since", "perhaps forged", "Nothing in them"} {
		if strings.Contains(report, w) {
			t.Errorf("the GM's report has the English %q:\n%s", w, report)
		}
	}
}

// answerSays checks that got is one answer holding every phrase of want
// (its lines joined: a phrase may be filled over two) and none of not.
func answerSays(t *testing.T, got, want, not []string) {
	t.Helper()
	answer := one(t, flat(got), "the sender", want...)
	for _, w := range not {
		if strings.Contains(answer, w) {
			t.Errorf("the answer has %q:\n%s", w, answer)
		}
	}
}
