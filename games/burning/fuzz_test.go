package burning

import (
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// FuzzParse: whatever text a player sends, Parse does not panic, and when
// it accepts the text its canonical lines parse again to themselves and
// resolve without error.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"BUILD CANNON AT H6\nDEMOLISH F5", "SHIP 1 MOVE N6\nSHIP 1 ATTACK 2", "MAKE 2 small at arda",
		"КОРАБЛЬ 1 ЗАГРУЗИТЬ Arda 5 С", "СТРОИТЬ ПУШКА В Н6", "FIRE E4 AT 2", "BOMBARD Borvik", "LANG RU",
		"ALLY cy\nBREAK cy", "BUY RIG AT Arda FOR 3", "SHIP 3 UNLOAD Borvik 10B 5M", "# comment\n\nSHIP 1 CONQUER borvik",
		"SHIP 1 ATTACK ASTEROID K11\nFIRE E4 AT asteroid E3", "OFFER bob SHIP 3 GIVE 5B GET 2M 1C\nACCEPT 1\nRESIGN",
		"OFFER bob SHIP 3 GIVE 5B TURNS 3 GET 2M", "ПРЕДЛОЖИТЬ bob КОРАБЛЬ 3 ХОДОВ 2 ОТДАТЬ 1Б",
		"TILE FOREST AT F5\nAUTO", "РЕСУРС ГОРА В G5\nBUILD CANNON AT E4",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s := buildCase(t, fuzzSetup)
		v := s.View("ann")
		for _, p := range s.Prompts() {
			if p.Player != "ann" {
				continue
			}
			o, errs := v.Parse(p, text)
			if len(errs) > 0 {
				for _, e := range errs {
					if e.Line < 1 || e.Msg == "" {
						t.Fatalf("error without a line or message: %+v", e)
					}
				}
				continue
			}
			canon := engine.OrdersText(o)
			again, errs := v.Parse(p, canon)
			if len(errs) > 0 {
				t.Fatalf("canonical %q does not parse: %v", canon, errs)
			}
			if got := engine.OrdersText(again); got != canon {
				t.Fatalf("round trip:\n%s\n---\n%s", canon, got)
			}
			if strings.Count(canon, "\n") > strings.Count(text, "\n") {
				t.Fatalf("more canonical lines than sent")
			}
			// Accepted orders must also run: no panic, no error.
			live := buildCase(t, fuzzSetup)
			if _, err := live.Resolve([]engine.Answer{{Prompt: p, Orders: o}}, dice.New("fuzz")); err != nil {
				t.Fatalf("resolving %q: %v", canon, err)
			}
		}
	})
}

const fuzzSetup = `players ann bob cy
faction bob xenos
planet Arda F6 small fair ann
site Arda F5 forest
site Arda E4 cannon
site Arda G6 spaceport
planet Borvik Q6 small fair bob
site Borvik P4 cannon
site Borvik R6 spaceport
ship 1 ann small N6
ship 2 bob medium M6
ship 3 ann cargo H3 10B 5M
bank ann 50B 50C 50F 50M
`
