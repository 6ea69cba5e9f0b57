package earthman

import (
	"encoding/json"
	"strings"
	"testing"

	"orrery/engine"
)

func dataOf(t *testing.T, v engine.View) string {
	t.Helper()
	raw, err := json.Marshal(v.(engine.ViewData).Data())
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestViewDataClassic: the classic view as data holds the board every
// player sees and, of the standing orders, only the reader's own.
func TestViewDataClassic(t *testing.T) {
	s := buildState(t, `players ann bob
active bob
dev Earth ann 2
dev Earth bob 1
dev Earth UN 4
fleet Earth ann 1
fleet Inner ann 2
course ann Inner Luna 2
oncoup ann Mars DECOMMISSION
tasked ann Earth 1 0
trigger ann ON LOSS AT ANY BY bob GIFT ALL DEV TO UN
agree bob bob`)
	s.Support = map[string][]Support{"ann": {{Target: "bob", World: "Earth", N: 1}}}
	s.Window = &Window{Target: "ann", Orders: []string{"FIRE 1 AT ann ON Earth", "COUP 2 AT ann ON Luna SECRETLY"}, A: 1, D: 2}
	private := []string{`"on_coup"`, `"DECOMMISSION"`, `"courses"`, `"Luna","n":2`, `"triggers"`, `"support"`, `"tasked"`}
	ann := dataOf(t, s.View("ann"))
	for _, w := range append(private, `"Earth":{"fleets":{"ann":1}`, `"agree":{"bob":"bob"}`, `"name":"Titan"`,
		`"window":{"a":1,"d":2,"order":"FIRE 1 AT ann ON Earth","target":"ann"}`) {
		if !strings.Contains(ann, w) {
			t.Errorf("ann's data lacks %s:\n%s", w, ann)
		}
	}
	for who, v := range map[string]engine.View{"bob": s.View("bob"), "an observer": s.PublicView()} {
		d := dataOf(t, v)
		for _, w := range append(private, "SECRETLY") {
			if strings.Contains(d, w) {
				t.Errorf("%s's data shows ann's %s:\n%s", who, w, d)
			}
		}
		if !strings.Contains(d, `"Inner":{"fleets":{"ann":2}}`) {
			t.Errorf("%s's data lacks the board:\n%s", who, d)
		}
	}
}

// TestViewDataFull: the full rules' view as data holds everyone's tracks
// and only the reader's standing orders, and never the Skynet deck.
func TestViewDataFull(t *testing.T) {
	s := buildFull(t, `players ann bob
active bob
region Earth 1 ann 1
fleet Mars ann 3
order ann AI KEEP 2
order ann TECH Research
order ann CONCEDE TO bob
option collab`)
	s.Skynet, s.Deck, s.Rogue = true, []int{424242, 171717}, 3
	private := []string{`"ai_keep":2`, `"tech_plan":["Research"]`, `"concede_to":"bob"`}
	ann := dataOf(t, s.View("ann"))
	for _, w := range append(private, `"rogue":3`, `"economy":0`, `"Mars":{"ann":{"ok":3}}`) {
		if !strings.Contains(ann, w) {
			t.Errorf("ann's data lacks %s:\n%s", w, ann)
		}
	}
	for who, v := range map[string]engine.View{"ann": s.View("ann"), "bob": s.View("bob"), "an observer": s.PublicView()} {
		d := dataOf(t, v)
		if strings.Contains(d, "424242") || strings.Contains(d, `"deck"`) {
			t.Errorf("%s's data shows the Skynet deck:\n%s", who, d)
		}
		if who == "ann" {
			continue
		}
		for _, w := range private {
			if strings.Contains(d, w) {
				t.Errorf("%s's data shows ann's %s:\n%s", who, w, d)
			}
		}
		if !strings.Contains(d, `"vp":`) || !strings.Contains(d, `"regions":{`) {
			t.Errorf("%s's data lacks the tracks or the board:\n%s", who, d)
		}
	}
}
