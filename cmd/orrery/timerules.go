package main

import (
	"fmt"
	"strings"
	"time"

	"orrery/engine/game"
)

// timeRules is what `game show --gm` adds after the report: the rules
// that shape the game's deadlines, and each seat's zone and absences, so
// that a GM can see why a deadline is where it is.
func timeRules(g *game.Game) string {
	var b strings.Builder
	st := g.Settings
	zone := st.TimeZone
	if zone == "" {
		zone = "UTC"
	}
	fmt.Fprintf(&b, "\ntime rules (zone %s):\n", zone)
	if !g.Deadline.IsZero() {
		fmt.Fprintf(&b, "  deadline: %s\n", g.Deadline.UTC().Format("Mon 2006-01-02 15:04 MST"))
	}
	fmt.Fprintf(&b, "  quiet hours: %s\n", orWord(st.QuietHours, "none"))
	weekends := "on (the clock runs)"
	if st.WeekendsOff {
		weekends = "off (the clock stops from Saturday 00:00 to Monday 00:00)"
	}
	fmt.Fprintf(&b, "  weekends: %s\n", weekends)
	if st.Abandoned == "bot" {
		rw := st.ReturnWindow
		if rw == 0 {
			rw = game.DefaultReturnWindow
		}
		fmt.Fprintf(&b, "  return window: %d turns (a player the bot replaced gets the seat back by writing with their secret)\n", rw)
	}
	for _, p := range g.Players {
		if p.Bot {
			continue
		}
		z := p.Zone
		if z == "" {
			z = zone + " (the game's)"
		}
		line := fmt.Sprintf("  %s: zone %s", p.Name, z)
		for _, v := range g.Vacations {
			if v.Player == p.Name {
				line += fmt.Sprintf(", away %s until %s", v.From.UTC().Format(time.DateOnly), v.To.UTC().Format(time.DateOnly))
			}
		}
		if w, ok := g.AutoWait[p.Name]; ok {
			line += fmt.Sprintf(", waited for on vacation days since %s (up to %s)", w.From.UTC().Format("2006-01-02 15:04 MST"), w.To.UTC().Format("2006-01-02 15:04 MST"))
		}
		fmt.Fprintln(&b, line)
	}
	return b.String()
}
