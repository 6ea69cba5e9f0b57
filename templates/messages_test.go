package templates

import (
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/lang"
)

// TestMessageDateOnce: a time a message wrote for a Russian reader in UTC
// ("пн 2026-11-23 12:00 UTC") is not dated again by tr, which gave it a
// second weekday ("пн пн").
func TestMessageDateOnce(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		tag  lang.Tag
		want string
	}{
		{lang.Russian, "пн 2026-11-23 12:00 UTC"},
		{lang.English, "Mon 2026-11-23 12:00 UTC"},
	} {
		d := &Data{Game: "demo1", Player: "ann", Secret: "k7f3q", Lang: tc.tag, Notice: &game.Notice{Kind: "wait"}}
		d.Notice.Tell(lang.M("WAIT noted: %s will not resolve early; it waits for %s.", "demo1", lang.M("the deadline, %s", at)))
		m, err := s.Render(Notice, d)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.HTML, tc.want) || strings.Contains(m.HTML, "пн пн") {
			t.Errorf("%s: the notice does not date it once as %q:\n%s", tc.tag, tc.want, m.HTML)
		}
	}
}
