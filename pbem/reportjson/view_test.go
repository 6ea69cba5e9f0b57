package reportjson

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
	"orrery/engine/game"
	"orrery/games"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestViewPerRuleset pins the view of report.json for every ruleset: a
// bot game of three seats (two where a ruleset takes no more) after a few
// steps, as its first seat reads it. Every ruleset gives one
// (engine.ViewData), so tools can read the board without parsing text.
func TestViewPerRuleset(t *testing.T) {
	for _, rs := range games.All() {
		name := rs.Info().Name
		t.Run(name, func(t *testing.T) {
			players := []string{"ann", "bob", "cy"}[:min(3, rs.Info().MaxPlayers)]
			var got []byte
			enginetest.Walk(t, rs, enginetest.Options{Players: players, Seed: 7, MaxSteps: 20}, func(step int, st engine.State) {
				r := &game.Report{Game: "g", Ruleset: name, Player: "ann", Step: uint64(step), View: st.View("ann")}
				x := Build(r)
				if x.View == nil {
					t.Fatalf("%s gives no view in report.json", name)
				}
				var err error
				if got, err = json.MarshalIndent(x.View, "", "  "); err != nil {
					t.Fatal(err)
				}
			})
			got = append(got, '\n')
			path := filepath.Join("testdata", "view-"+name+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./pbem/reportjson -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the view of %s's report.json differs from %s (go test ./pbem/reportjson -update, after reading the diff):\n%s", name, path, got)
			}
		})
	}
}
