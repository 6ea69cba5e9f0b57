package orbital

import (
	"encoding/json"
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// view is one player's copy of the state: everything is open (002-E) except
// what rides on an enemy booster, which shows as a bare booster until it is
// deployed or strikes.
type view struct {
	s      *State
	player string
	public bool // an observer's: Player is engine.Observer
	// lang is the language the view draws itself in (Localize); "" is
	// English.
	lang lang.Tag
}

func (s *State) View(player string) engine.View {
	data, _ := json.Marshal(s)
	c, _ := loadState(data)
	if player != "" {
		hidden := map[string]bool{}
		for changed := true; changed; {
			changed = false
			for _, u := range c.Units {
				if hidden[u.ID] || u.In == "" {
					continue
				}
				carrier := c.unit(u.In)
				enemy := carrier != nil && carrier.Owner != player
				if hidden[u.In] || (enemy && (carrier.Kind == Booster || c.hiddenCargo())) {
					hidden[u.ID], changed = true, true
				}
			}
		}
		kept := c.Units[:0]
		for _, u := range c.Units {
			if !hidden[u.ID] {
				if u.Owner != player {
					u.Fire, u.Trigger = nil, nil // standing orders are sealed
				}
				kept = append(kept, u)
			}
		}
		c.Units = kept
	}
	return &view{s: c, player: player}
}

// publicSeat is the seat of nobody: its view hides every booster's payload
// and every sealed fire order, as an opponent's would.
const publicSeat = "\x00public"

// PublicView is what an observer sees: what both players see of each
// other's units (payloads on boosters hidden, standing orders sealed).
func (s *State) PublicView() engine.View {
	v := s.View(publicSeat).(*view)
	v.player, v.public = "", true
	return v
}

func (v *view) Player() string {
	if v.public {
		return engine.Observer
	}
	return v.player
}

func (v *view) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	if v.player == "" {
		return nil, []engine.LineError{{Msg: "the GM has no orders of their own here", Fix: "enter orders as a player"}}
	}
	set, errs := v.parse(text)
	if len(errs) > 0 {
		return nil, errs
	}
	return set, nil
}

// Board draws the map one character a hex, staggered like the hex grid, and
// a legend of every occupied hex below it (at most 78 columns).
func (v *view) Board() string {
	s := v.s
	labels := map[Hex]byte{}
	var legend []string
	const marks = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for _, h := range allHexes() {
		var here []string
		for _, m := range s.Moons {
			if m.Hex == h {
				here = append(here, fmt.Sprintf("moon %s (X=%d) v%d %s", m.ID, m.X, m.V, dirNames[m.F]))
			}
		}
		for _, u := range s.Units {
			if u.In == "" && (u.Hex == h) {
				here = append(here, v.short(u))
			}
		}
		if len(here) == 0 {
			continue
		}
		mark := byte('*')
		if len(labels) < len(marks) {
			mark = marks[len(labels)]
		}
		labels[h] = mark
		legend = append(legend, wrap(fmt.Sprintf("%c %-4s %s", mark, h.Name(), strings.Join(here, "; ")), 78, "       ")...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d. Planet @, debris rings 4 and 7 ':', moons and units by letter.\n", s.TurnN)
	b.WriteString("Hex names: ring, sextant A-F (corners E NE NW W SW SE), offset.\n\n")
	for r := -Radius; r <= Radius; r++ {
		row := []byte(strings.Repeat(" ", 4*Radius+1))
		for q := max(-Radius, -Radius-r); q <= min(Radius, Radius-r); q++ {
			h := Hex{q, r}
			c := byte('.')
			switch {
			case h.ring() == 0:
				c = '@'
			case labels[h] != 0:
				c = labels[h]
			case s.rings.Debris[h.ring()]:
				c = ':'
			}
			row[h.planarX()] = c
		}
		left, right := rowLabel(r)
		line := fmt.Sprintf("%8s %s", left, string(row))
		if right != "" {
			line += " " + right
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString("\n")
	for _, l := range legend {
		b.WriteString(l + "\n")
	}
	b.WriteString("\nring   1 2 3 4 5 6 7 8 9 10\n")
	for _, row := range []struct {
		name string
		vals [Radius + 1]int
	}{{"green", s.rings.Green}, {"white", s.rings.White}, {"blue ", s.rings.Blue}} {
		fmt.Fprintf(&b, "%s ", row.name)
		for i := 1; i <= Radius; i++ {
			fmt.Fprintf(&b, "%2d", row.vals[i])
		}
		b.WriteString("\n")
	}
	b.WriteString("(blue is printed on the six corner hexes of each ring)\n")
	return b.String()
}

// planarX is the column of h on the board: two columns per hex, half a hex
// shift per row.
func (h Hex) planarX() int { x, _ := h.planar(); return x + 2*Radius }

func (v *view) short(u *Unit) string {
	s := fmt.Sprintf("%s %s %s v%d %s", u.Owner, u.Kind, u.ID, u.V, dirNames[u.F])
	if n := len(v.s.cargo(u.ID)); n > 0 {
		s += fmt.Sprintf(" +%d aboard", n)
	}
	return s
}

func wrap(s string, width int, indent string) []string {
	var out []string
	for len(s) > width {
		cut := strings.LastIndex(s[:width], " ")
		if cut <= len(indent) {
			cut = width
		}
		out = append(out, s[:cut])
		s = indent + strings.TrimLeft(s[cut:], " ")
	}
	return append(out, s)
}

// Status lists each player's bank and every visible unit, one sentence a
// line, so it reads in any font.
func (v *view) Status() string {
	s := v.s
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d, scenario %s.\n", s.TurnN, s.Opts["scenario"])
	for _, p := range s.Players {
		fmt.Fprintf(&b, "%s: %d RU in the bank", p.Name, p.RU)
		if s.Opts["scenario"] == "refinery" {
			fmt.Fprintf(&b, ", %d of %s refined", p.Refined, s.Opts["refinery-goal"])
		}
		if p.Out {
			b.WriteString(", out of the game")
		}
		b.WriteString(".\n")
	}
	for _, u := range s.Units {
		for _, l := range wrap(v.describe(u), 78, "    ") {
			b.WriteString(l + "\n")
		}
	}
	if s.Result.Over {
		fmt.Fprintf(&b, "Game over: %s.\n", s.Result.Text)
	}
	return b.String()
}

func (v *view) describe(u *Unit) string {
	s := v.s
	var parts []string
	where := "at " + u.Hex.Name()
	switch {
	case u.In != "":
		where = "aboard " + u.In
	case u.Atmo:
		where = "in the atmosphere"
	}
	parts = append(parts, fmt.Sprintf("%s: %s's %s %s, velocity %d heading %s", u.ID, u.Owner, u.Kind, where, u.V, dirNames[u.F]))
	if u.Moon != "" {
		parts = append(parts, "landed on "+u.Moon)
	}
	for _, m := range u.Modules {
		state := ""
		if m.disabled() {
			state = " disabled"
		}
		parts = append(parts, fmt.Sprintf("%s %d/%d damage%s", m.Kind, m.Damage, specs[m.Kind].HP, state))
	}
	if u.Kind == Station {
		q := stationQuota(u)
		parts = append(parts, fmt.Sprintf("quota %d", q.general))
	}
	if u.Damage > 0 {
		parts = append(parts, fmt.Sprintf("damage %d/%d", u.Damage, u.spec().HP))
	}
	if u.Kind.satellite() && !u.Deployed {
		parts = append(parts, "not deployed")
	}
	if u.pulsed(s.TurnN) {
		parts = append(parts, fmt.Sprintf("disabled by a pulse through turn %d", u.Disabled))
	}
	if u.Gas > 0 {
		parts = append(parts, "loaded with gas")
	}
	if u.Fire != nil {
		verb := "FIRE"
		if u.Kind.warhead() {
			verb = "STRIKE"
		}
		parts = append(parts, "standing order "+order{Verb: verb, Unit: u.ID, Fire: *u.Fire}.line())
	}
	if tr := u.Trigger; tr != nil {
		parts = append(parts, "standing trigger "+order{Verb: tr.Verb, Unit: u.ID, When: tr.When}.line())
	}
	return strings.Join(parts, "; ") + "."
}

// rowLabel names the ring-10 corners at the ends of their rows, to help
// find the sextants.
func rowLabel(r int) (string, string) {
	switch r {
	case -Radius:
		return "10C0 >", "< 10B0"
	case 0:
		return "10D0 >", "< 10A0"
	case Radius:
		return "10E0 >", "< 10F0"
	}
	return "", ""
}
