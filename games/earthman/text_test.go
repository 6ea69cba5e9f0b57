package earthman

import (
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/lang"
)

// orderHelp is a constant (its Russian is a catalog entry), no longer
// built from grammar: it must still show every simple shape.
func TestOrderHelpHasEveryShape(t *testing.T) {
	for verb, shape := range grammar {
		if verb == vRoute || verb == vOn {
			continue // written over several lines
		}
		if !strings.Contains(orderHelp, shape) {
			t.Errorf("the order help lacks %s's shape %q", verb, shape)
		}
	}
}

// A Russian reader's board, status, picture, HELP and RULES are Russian;
// an English reader's are what they were.
func TestLocalizedView(t *testing.T) {
	s := buildState(t, `players ann bob cyd
active ann
fleet Earth ann 1
fleet Mars cyd 3
fleet Cislunar ann 2
dev Earth ann 1
dev Earth UN 6
dev Mars bob 2
course ann Inner Mars 2
tasked ann Earth 1 0`)
	en := s.View("ann")
	ru := (classic{}).Localize(en, "ru")
	if ru.Board() == en.Board() || ru.Status() == en.Status() {
		t.Fatal("the Russian board or status is the English one")
	}
	if en.Board() != (classic{}).Localize(en, "en").Board() {
		t.Error("the English board changed through Localize")
	}
	for _, text := range []string{ru.Board(), ru.Status(), ru.(engine.Drawer).Picture().Alt()} {
		for _, en := range []string{"fleets", "regions", "Factions", "Turn ", "Your standing", "The solar disc"} {
			if strings.Contains(text, en) {
				t.Errorf("the Russian view holds %q:\n%s", en, text)
			}
		}
	}
	for _, text := range []string{orderHelp, classicSummary} {
		out, ok := (classic{}).Translate("ru", text)
		if !ok || out == text {
			t.Errorf("no Russian for %.40q…", text)
		}
		if _, ok := (classic{}).Translate("en", text); ok {
			t.Error("Translate to English translated")
		}
	}
	if tr(lang.Russian, fleetsM(5)) != "5 флотов" {
		t.Errorf("5 fleets are %q", tr(lang.Russian, fleetsM(5)))
	}
}

// shapeOn is written out (a message id must be one constant) but must
// stay the two short forms and triggerShape.
func TestShapeOnEndsWithTriggerShape(t *testing.T) {
	if !strings.HasSuffix(shapeOn, ", or "+triggerShape) {
		t.Errorf("shapeOn no longer ends with triggerShape:\n%s\n%s", shapeOn, triggerShape)
	}
}
