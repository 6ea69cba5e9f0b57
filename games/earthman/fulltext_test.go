package earthman

import (
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// TestFullTranslatesItsInfo checks that HELP and RULES find the full
// rules' summary, order help and options' help in Russian, and that the
// Russian help still fits a mail's 78 columns.
func TestFullTranslatesItsInfo(t *testing.T) {
	info := full{}.Info()
	texts := []string{info.Summary, info.OrderHelp}
	for _, o := range info.Options {
		texts = append(texts, o.Help)
	}
	for _, en := range texts {
		ru, ok := full{}.Translate("ru", en)
		if !ok || ru == en || !strings.ContainsAny(ru, "абвгдеёжзийклмнопрстуфхцчшщыьэюя") {
			t.Errorf("no Russian for %q: %q", en, ru)
		}
		if out, ok := (full{}).Translate("en", en); ok || out != en {
			t.Errorf("English %q is translated to %q", en, out)
		}
	}
	help, _ := full{}.Translate("ru", info.OrderHelp)
	for _, l := range strings.Split(help, "\n") {
		if w := engine.Width(l); w > 78 {
			t.Errorf("a Russian help line of %d columns: %q", w, l)
		}
	}
	if !strings.Contains(help, "VonNeumann") || strings.Contains(help, "%!") {
		t.Errorf("the Russian help lost its technologies or an argument:\n%s", help)
	}
}

// TestFullStatusInRussian checks that a localized view writes its status
// in Russian, and the English view as before.
func TestFullStatusInRussian(t *testing.T) {
	st, err := full{}.NewState(engine.Setup{GameID: "st", Players: []string{"ann", "bob"},
		Options: map[string]string{"skynet": "on"}}, dice.New("st"))
	if err != nil {
		t.Fatal(err)
	}
	v := st.View("ann")
	en := v.Status()
	ru := full{}.Localize(v, "ru").Status()
	if !strings.Contains(en, "Your standing orders: DEFENSIVE FIRE ALL;") || !strings.Contains(en, "Skynet: the rogue AI marker is at 0 of 15.") {
		t.Errorf("English status:\n%s", en)
	}
	for _, want := range []string{"Ход 1: ходит", "Скайнет: маркер взбунтовавшегося ИИ на 0 из 15.", "ПО 0, Мощь 0", "Ваши постоянные приказы: DEFENSIVE FIRE ALL;"} {
		if !strings.Contains(ru, want) {
			t.Errorf("Russian status lacks %q:\n%s", want, ru)
		}
	}
	if strings.Contains(ru, "VP") || strings.Contains(ru, "Turn") {
		t.Errorf("English left in the Russian status:\n%s", ru)
	}
}

// TestFullShapesAreTheGrammar keeps each order's shape as a message the
// same as the grammar the help and the parser use.
func TestFullShapesAreTheGrammar(t *testing.T) {
	for verb, shape := range fullGrammar {
		if got := fullShapeMsg(verb).English(); got != shape {
			t.Errorf("%s: shape message %q, grammar %q", verb, got, shape)
		}
		if fullShapeMsg(verb).ID == "%s" {
			t.Errorf("%s has no shape message", verb)
		}
	}
}

// TestFullOrderErrorsInRussian checks that an order error's fix names
// the order's shape with Russian placeholders for a Russian reader, and
// words it in English as it always did.
func TestFullOrderErrorsInRussian(t *testing.T) {
	st, err := full{}.NewState(engine.Setup{GameID: "err", Players: []string{"ann", "bob"}}, dice.New("err"))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*FullState)
	v := s.View(s.Players[s.Active])
	var turn engine.Prompt
	for _, p := range s.Prompts() {
		if p.Kind == engine.KindTurn {
			turn = p
		}
	}
	for _, c := range []struct{ line, fix, ru string }{
		{"FIRE Mars 2 TO bob", "write it as: FIRE <world> <n> AT <faction>", "пишите так: FIRE <мир> <n> AT <фракция>"},
		{"FIRE Mars 2", "write it as: FIRE <world> <n> AT <faction>", "пишите так: FIRE <мир> <n> AT <фракция>"},
		{"UN SHIPS", "write FLEET or RESEARCH", "напишите FLEET или RESEARCH"},
	} {
		_, errs := v.Parse(turn, c.line)
		if len(errs) != 1 || errs[0].Hint == nil {
			t.Fatalf("%s: errors %v", c.line, errs)
		}
		if errs[0].Fix != c.fix {
			t.Errorf("%s: English fix %q, want %q", c.line, errs[0].Fix, c.fix)
		}
		if ru := fullTr("ru", *errs[0].Hint); ru != c.ru {
			t.Errorf("%s: Russian fix %q, want %q", c.line, ru, c.ru)
		}
	}
}
