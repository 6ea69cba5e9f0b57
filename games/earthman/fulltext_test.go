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
