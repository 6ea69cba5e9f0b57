package orbital

import (
	"encoding/json"
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/draw"
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
		c.Story = draw.SeenBy(c.Story, player) // the step's story told to some seats only is theirs
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
				here = append(here, v.render(lang.M("moon %s (X=%d) v%d %s", m.ID, m.X, m.V, dirNames[m.F])))
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
	b.WriteString(v.render(lang.M("Turn %d. Planet @, debris rings 4 and 7 ':', moons and units by letter.", s.TurnN)) + "\n")
	b.WriteString(v.render(lang.M("Hex names: ring, sextant A-F (corners E NE NW W SW SE), offset.")) + "\n\n")
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
	// The table's names are padded to the longest, in any language:
	// "ring   1 2 …", "green  5 4 …".
	rows := []struct {
		name string
		vals [Radius + 1]int
	}{{v.render(lang.M("green")), s.rings.Green}, {v.render(lang.M("white")), s.rings.White}, {v.render(lang.M("blue")), s.rings.Blue}}
	ring := v.render(lang.M("ring"))
	w := engine.Width(ring)
	for _, row := range rows {
		w = max(w, engine.Width(row.name))
	}
	b.WriteString("\n" + pad(ring, w) + "  1 2 3 4 5 6 7 8 9 10\n")
	for _, row := range rows {
		fmt.Fprintf(&b, "%s ", pad(row.name, w))
		for i := 1; i <= Radius; i++ {
			fmt.Fprintf(&b, "%2d", row.vals[i])
		}
		b.WriteString("\n")
	}
	b.WriteString(v.render(lang.M("(blue is printed on the six corner hexes of each ring)")) + "\n")
	return b.String()
}

// planarX is the column of h on the board: two columns per hex, half a hex
// shift per row.
func (h Hex) planarX() int { x, _ := h.planar(); return x + 2*Radius }

func (v *view) short(u *Unit) string {
	m := lang.M("%s %s %s v%d %s", u.Owner, kindMsg(u.Kind), u.ID, u.V, dirNames[u.F])
	if n := len(v.s.cargo(u.ID)); n > 0 {
		m = lang.M("%s +%d aboard", m, n)
	}
	return v.render(m)
}

// wrap cuts s into lines of at most width columns (runes: a Russian
// line is as wide as it has letters), at spaces where it can.
func wrap(s string, width int, indent string) []string {
	var out []string
	r := []rune(s)
	in := len([]rune(indent))
	for len(r) > width {
		cut := -1
		for k := width - 1; k >= 0; k-- {
			if r[k] == ' ' {
				cut = k
				break
			}
		}
		if cut <= in {
			cut = width
		}
		out = append(out, string(r[:cut]))
		r = []rune(indent + strings.TrimLeft(string(r[cut:]), " "))
	}
	return append(out, string(r))
}

// pad is s with spaces after it to width columns.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-engine.Width(s)))
}

// Status lists each player's bank and every visible unit, one sentence a
// line, so it reads in any font.
func (v *view) Status() string {
	s := v.s
	var b strings.Builder
	b.WriteString(v.render(lang.M("Turn %d, scenario %s.", s.TurnN, scenarioMsg(s.Opts["scenario"]))) + "\n")
	for _, p := range s.Players {
		m := lang.M("%s: %d RU in the bank", p.Name, p.RU)
		if s.Opts["scenario"] == "refinery" {
			m = lang.M("%s, %d of %s refined", m, p.Refined, s.Opts["refinery-goal"])
		}
		if p.Out {
			m = lang.M("%s, out of the game", m)
		}
		b.WriteString(v.render(lang.M("%s.", m)) + "\n")
	}
	for _, u := range s.Units {
		for _, l := range wrap(v.describe(u), 78, "    ") {
			b.WriteString(l + "\n")
		}
	}
	if s.Result.Over {
		end := lang.M("%s", s.Result.Text)
		if s.Result.Msg != nil {
			end = *s.Result.Msg
		}
		b.WriteString(v.render(lang.M("Game over: %s.", end)) + "\n")
	}
	return b.String()
}

func (v *view) describe(u *Unit) string {
	s := v.s
	var parts []lang.Msg
	where := lang.M("at %s", u.Hex.Name())
	switch {
	case u.In != "":
		where = lang.M("aboard %s", u.In)
	case u.Atmo:
		where = lang.M("in the atmosphere")
	}
	parts = append(parts, lang.M("%s: %s's %s %s, velocity %d heading %s", u.ID, u.Owner, kindMsg(u.Kind), where, u.V, dirNames[u.F]))
	if u.Moon != "" {
		parts = append(parts, lang.M("landed on %s", u.Moon))
	}
	for _, m := range u.Modules {
		if m.disabled() {
			parts = append(parts, lang.M("%s %d/%d damage disabled", kindMsg(m.Kind), m.Damage, specs[m.Kind].HP))
		} else {
			parts = append(parts, lang.M("%s %d/%d damage", kindMsg(m.Kind), m.Damage, specs[m.Kind].HP))
		}
	}
	if u.Kind == Station {
		q := stationQuota(u)
		parts = append(parts, lang.M("quota %d", q.general))
	}
	if u.Damage > 0 {
		parts = append(parts, lang.M("damage %d/%d", u.Damage, u.spec().HP))
	}
	if u.Kind.satellite() && !u.Deployed {
		parts = append(parts, lang.M("not deployed"))
	}
	if u.pulsed(s.TurnN) {
		parts = append(parts, lang.M("disabled by a pulse through turn %d", u.Disabled))
	}
	if u.Gas > 0 {
		parts = append(parts, lang.M("loaded with gas"))
	}
	if u.Fire != nil {
		verb := "FIRE"
		if u.Kind.warhead() {
			verb = "STRIKE"
		}
		parts = append(parts, lang.M("standing order %s", order{Verb: verb, Unit: u.ID, Fire: *u.Fire}.line()))
	}
	if tr := u.Trigger; tr != nil {
		parts = append(parts, lang.M("standing trigger %s", order{Verb: tr.Verb, Unit: u.ID, When: tr.When}.line()))
	}
	return v.render(lang.M("%s.", semi(parts)))
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
