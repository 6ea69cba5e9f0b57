package games

import (
	"path"
	"reflect"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/lang"
)

// TestEveryMessageHasRussian finds every message id (lang.M, lang.MN) the
// code of each ruleset's package makes and checks that the ruleset's own
// catalog (engine.Cataloger) translates it into every language, with the
// arguments the id takes. A sentence reworded in English is a new id: it
// fails here until its translation follows. A ruleset that makes messages
// must have a catalog.
func TestEveryMessageHasRussian(t *testing.T) {
	seen := map[string]bool{}
	for _, rs := range All() {
		pkg := reflect.TypeOf(rs).PkgPath() // orrery/games/earthman
		dir := "./" + path.Base(pkg)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		t.Run(path.Base(pkg), func(t *testing.T) {
			uses, err := lang.Uses([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			c, ok := rs.(engine.Cataloger)
			if !ok {
				if len(uses) > 0 {
					t.Fatalf("%s makes %d messages (first %s) but has no catalog: give it a Catalog method (engine.Cataloger)", rs.Info().Name, len(uses), uses[0].Pos)
				}
				return
			}
			if miss := lang.Missing(uses, lang.Supported, c.Catalog()); len(miss) > 0 {
				t.Errorf("%d messages of %s lack a translation:\n%s", len(miss), rs.Info().Name, strings.Join(miss, "\n"))
			}
			used := map[string]bool{}
			for _, u := range uses {
				used[u.ID] = true
			}
			for _, tag := range lang.Supported[1:] {
				for _, id := range c.Catalog().IDs(tag) {
					if !used[id] {
						t.Errorf("%s: the %s catalog translates %q, which the code no longer makes: drop it", rs.Info().Name, tag, id)
					}
				}
			}
			t.Logf("%s: %d messages made", rs.Info().Name, len(uses))
		})
	}
}
