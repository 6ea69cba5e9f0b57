package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/enginetest"
)

// TestStepStoryIsDrawn (issue 44): the picture of a step shows what
// happened in it. In a bot game of every ruleset, a step comes with a move
// and a fight, and its picture, in the model the mail's PNG is drawn from
// and in the web's SVG, carries at least one arrow and one mark of them. At every
// step, no seat's picture draws an arrow or mark the GM's lacks, and the
// observers' draws only what every seat's does; and a move of that step
// made one seat's secret is drawn for that seat and the GM alone: what a
// reader was not told is not drawn for them.
func TestStepStoryIsDrawn(t *testing.T) {
	for _, rs := range All() {
		info := rs.Info()
		t.Run(info.Name, func(t *testing.T) {
			var players []string
			for i := range min(3, info.MaxPlayers) {
				players = append(players, fmt.Sprintf("p%d", i+1))
			}
			found := -1
			enginetest.Walk(t, rs, enginetest.Options{Players: players, Seed: 5, MaxSteps: 80}, func(step int, st engine.State) {
				gm := picture(t, st.View(""))
				all := gm.Told()
				var public *draw.Picture
				if pv, ok := st.(engine.PublicViewer); ok {
					public = picture(t, pv.PublicView())
				}
				for _, p := range players {
					seat := picture(t, st.View(p)).Told()
					within(t, step, p, seat, all)
					if public != nil {
						within(t, step, "the observers", public.Told(), seat)
					}
				}
				if found >= 0 || !moveAndFight(all) {
					return
				}
				found = step
				hidden(t, rs, st, players)
				svg, err := gm.SVG()
				if err != nil {
					t.Fatal(err)
				}
				i := bytes.Index(svg, []byte(`<g class="story">`))
				j := bytes.Index(svg, []byte("</g>"))
				if i < 0 || j < i {
					t.Fatalf("step %d: the SVG has no story group", step)
				}
				group := svg[i:j]
				if !bytes.Contains(group, []byte("<polyline")) || !bytes.Contains(group, []byte("<polygon")) && !bytes.Contains(group, []byte("<circle")) {
					t.Errorf("step %d: the SVG's story has no arrow or no mark:\n%s", step, group)
				}
				png, err := gm.PNG()
				if err != nil {
					t.Fatal(err)
				}
				// ORRERY_STORY_OUT=/tmp writes the pictures, to look at.
				if dir := os.Getenv("ORRERY_STORY_OUT"); dir != "" {
					os.WriteFile(filepath.Join(dir, info.Name+"-story.png"), png, 0o644)
					os.WriteFile(filepath.Join(dir, info.Name+"-story.svg"), svg, 0o644)
				}
			})
			if found < 0 {
				t.Fatalf("no step of the bot game drew both an arrow and a mark")
			}
			t.Logf("step %d draws a move and a fight", found)
		})
	}
}

// moveAndFight reports whether s draws a move (or launch) arrow and a
// fight: an attack's arrow, or a battle's, a loss's or a capture's mark.
func moveAndFight(s draw.Story) bool {
	move, fight := false, false
	for _, a := range s.Arrows {
		move = move || a.Kind == draw.Move || a.Kind == draw.Launch
		fight = fight || a.Kind == draw.Attack
	}
	for _, m := range s.Marks {
		fight = fight || m.Kind == draw.Battle || m.Kind == draw.Destroyed || m.Kind == draw.Captured
	}
	return move && fight
}

// hidden checks that a move told to one seat alone is drawn for that seat
// and the GM only: the state of the step is reloaded with its story cut
// to its first arrow, that arrow made the first seat's secret.
func hidden(t *testing.T, rs engine.Ruleset, st engine.State, players []string) {
	t.Helper()
	data, err := st.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var told []draw.Told
	if err := json.Unmarshal(raw["story"], &told); err != nil {
		t.Fatalf("the state keeps no story under \"story\": %v", err)
	}
	i := slices.IndexFunc(told, func(e draw.Told) bool { return e.From != "" })
	if i < 0 {
		t.Fatal("the story has no arrow")
	}
	secret := told[i]
	secret.Seen = []string{players[0]}
	raw["story"], _ = json.Marshal([]draw.Told{secret})
	data, _ = json.Marshal(raw)
	st, err = rs.LoadState(data)
	if err != nil {
		t.Fatal(err)
	}
	views := map[string]engine.View{"the GM": st.View("")}
	for _, p := range players {
		views[p] = st.View(p)
	}
	if pv, ok := st.(engine.PublicViewer); ok {
		views["the observers"] = pv.PublicView()
	}
	for who, v := range views {
		n := len(picture(t, v).Told().Arrows)
		want := 0
		if who == "the GM" || who == players[0] {
			want = 1
		}
		if n != want {
			t.Errorf("a move told to %s alone: %s's picture draws %d arrows, want %d", players[0], who, n, want)
		}
	}
}

func picture(t *testing.T, v engine.View) *draw.Picture {
	t.Helper()
	d, ok := v.(engine.Drawer)
	if !ok {
		t.Fatalf("the view of %q draws no picture", v.Player())
	}
	return d.Picture()
}

// within fails t if story s of reader draws more arrows or marks of a
// kind and colour than wider does. Positions are not compared: a reader's
// picture may lay its board out for them (a crop, an inset).
func within(t *testing.T, step int, reader string, s, wider draw.Story) {
	t.Helper()
	type what struct {
		kind   draw.Kind
		colour draw.Color
	}
	count := func(s draw.Story) map[what]int {
		n := map[what]int{}
		for _, a := range s.Arrows {
			n[what{a.Kind, a.Color}]++
		}
		for _, m := range s.Marks {
			n[what{m.Kind, m.Color}]++
		}
		return n
	}
	have := count(wider)
	for w, n := range count(s) {
		if n > have[w] {
			t.Errorf("step %d: %s's picture draws %d %s of colour %v, the wider view %d", step, reader, n, w.kind, w.colour, have[w])
		}
	}
}
