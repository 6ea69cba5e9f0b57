package games

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"orrery/engine/enginetest"
	"orrery/engine/lang"
)

// analysisID is an id of games-analysis.md ("004-G3", "002-F19"): players
// do not have the analysis, so what they read never cites one.
var analysisID = regexp.MustCompile(`\b\d{3}-[A-Z]{1,2}\d*\b`)

// TestTextCountsAndArticles (issue 19): what players read says "1 victory"
// and "an engine module", never "1 victories", "fleet(s)" or "a engine":
// every golden file and rule case of the rulesets and the engine, and everything a bot
// game of each ruleset gives its players (the events of every step, each
// seat's board, status and prompts, the ruleset's help) pass lang.Check.
// The mails themselves are checked in cmd/orrery (TestDemoMailsReadWell).
func TestTextCountsAndArticles(t *testing.T) {
	for _, root := range []string{".", "../engine"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			// Goldens, and the rule cases, whose events are what players read.
			ext := filepath.Ext(path)
			if err != nil || d.IsDir() || ext != ".golden" && !(strings.Contains(path, "cases") && (ext == ".txtar" || ext == ".txt")) {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if ext != ".golden" {
				// A case's description and position are ours; what it
				// expects the rules to say is what players read.
				ar := txtar.Parse(b)
				b = nil
				for _, f := range ar.Files {
					switch strings.Fields(f.Name + " x")[0] {
					case "events", "expect", "errors", "want":
						b = append(b, f.Data...)
					}
				}
			}
			for _, slip := range lang.Check(string(b)) {
				t.Errorf("%s: %s", path, slip)
			}
			if id := analysisID.FindString(string(b)); id != "" {
				t.Errorf("%s cites the analysis id %s: players do not have the analysis; the README keeps it", path, id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, rs := range All() {
		info := rs.Info()
		t.Run(info.Name, func(t *testing.T) {
			check := func(what, text string) {
				t.Helper()
				for _, slip := range lang.Check(text) {
					t.Errorf("%s: %s", what, slip)
				}
				if id := analysisID.FindString(text); id != "" {
					t.Errorf("%s cites the analysis id %s (the README keeps it): %q", what, id, text)
				}
			}
			check("order help", info.OrderHelp)
			check("summary", info.Summary)
			for _, o := range info.Options {
				check("option "+o.Name, o.Help)
			}
			if testing.Short() {
				t.Skip("whole games (what a bot game gives its players): run without -short")
			}
			players := []string{"ann", "bob", "cyd"}[:min(max(3, info.MinPlayers), info.MaxPlayers)]
			for seed := uint64(1); seed <= 3; seed++ {
				res := enginetest.PlayBots(t, rs, enginetest.Options{Players: players, Seed: seed})
				for _, e := range res.Events(t) {
					check(fmt.Sprintf("seed %d: an event", seed), e)
				}
				ctx := context.Background()
				for n := uint64(0); n <= res.Game.Step; n += max(res.Game.Step/20, 1) {
					for _, p := range append([]string{""}, players...) {
						r, err := res.Service.StepReport(ctx, res.Game.ID, n, p)
						if err != nil {
							t.Fatal(err)
						}
						check(fmt.Sprintf("seed %d step %d: %q's board", seed, n, p), r.Board)
						check(fmt.Sprintf("seed %d step %d: %q's status", seed, n, p), r.Status)
						for _, q := range r.Prompts {
							check(fmt.Sprintf("seed %d step %d: prompt %s", seed, n, q.ID), q.Ask)
						}
					}
				}
			}
		})
	}
}
