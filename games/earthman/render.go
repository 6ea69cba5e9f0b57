package earthman

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// tree is the solar disc drawn as a tree from the centre (left) to the rim
// (right): worldward is rightward. Each {Name} is replaced by the place's
// name padded to the width of the braces, marked with * when fleets are
// there; worlds get their regions and fleets after them.
var tree = []string{
	"                      .-> {Hermean }-+-> {Mercury }",
	"                      |              '-> {Venus   }",
	"         .-> {Inner }-+",
	"         |            '-> {Cislunar}-+-> {Earth   }",
	"         |                           '-> {Luna    }",
	"{Solar }-+-> {Middle}-+-> {Martian }---> {Mars    }",
	"         |            '-> {Belt    }---> {Ceres   }",
	"         '-> {Outer }-+-> {Jovian  }-+-> {Io      }",
	"                      |              +-> {Europa  }",
	"                      |              '-> {Ganymede}",
	"                      '-> {Kronian }---> {Titan   }",
}

// letter is a faction's one-letter tag: seats a, b, c… and U for the UN.
func (s *State) letter(f string) string {
	if f == un {
		return "U"
	}
	for i, p := range s.Players {
		if p == f {
			return string(rune('a' + i))
		}
	}
	return "?"
}

// regionString shows one character per region: its owner, or '.' if free.
func (s *State) regionString(w string) string {
	var b strings.Builder
	for _, f := range s.factions() {
		b.WriteString(strings.Repeat(s.letter(f), s.devs(f, w)))
	}
	b.WriteString(strings.Repeat(".", s.unclaimed(w)))
	return "[" + b.String() + "]"
}

// fleetString lists the fleets at a place: "a3 b1 U10", or "-".
func (s *State) fleetString(at string) string {
	var parts []string
	for _, f := range s.factions() {
		if n := s.fleets(f, at); n > 0 {
			parts = append(parts, fmt.Sprintf("%s%d", s.letter(f), n))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// Board draws the disc, then the fleets in space. Lines stay within 78
// columns for up to six players and three-digit fleets.
func (v *view) Board() string {
	s := v.s
	var legend []string
	for _, f := range s.factions() {
		legend = append(legend, s.letter(f)+"="+f)
	}
	return drawDiscIn(v.tag(), func(name string) bool { return len(s.Places[name].Fleets) > 0 },
		s.regionString, s.fleetString,
		v.t(lang.M("Factions: %s  .=unclaimed region", strings.Join(legend, "  "))))
}

// drawDiscIn draws the tree of places with each world's regions and fleets,
// then every place with fleets, then the legend (written), its headings in
// t. Both editions use it.
func drawDiscIn(t lang.Tag, hasFleets func(string) bool, regions, fleets func(string) string, legend string) string {
	var b strings.Builder
	b.WriteString(tr(t, lang.M("THE SOLAR DISC  (centre left; worldward is rightward; ! hostile)")) + "\n")
	head := tr(t, lang.M("regions     fleets there"))
	b.WriteString(strings.Repeat(" ", 51) + head + "\n")
	var crowded []string
	for _, row := range tree {
		line := row
		for {
			i := strings.Index(line, "{")
			if i < 0 {
				break
			}
			j := strings.Index(line, "}")
			name := strings.TrimSpace(line[i+1 : j])
			p, _ := board.Get(name)
			label := name
			if hasFleets(name) {
				label += "*"
			}
			if p.Hostile {
				label += "!"
			}
			width := j - i + 1
			if fill := width - len(label); p.Kind != World && fill > 0 {
				label += " " + strings.Repeat("-", fill-1)
			}
			line = line[:i] + fmt.Sprintf("%-*s", width, label) + line[j+1:]
			if p.Kind == World {
				r := regions(name)
				if len(line)+1+len(r) > 78 {
					// Only a freak position (double-digit Devastation in
					// every region) gets here: its regions go below.
					crowded = append(crowded, fmt.Sprintf("  %s %s", name, r))
					r = tr(t, lang.M("(regions below)"))
				}
				line = fmt.Sprintf("%s %-10s ", line, r)
				below := tr(t, lang.M("(fleets below)"))
				switch f := fleets(name); {
				case len(line)+len(f) <= 78:
					line += f
				case len(line)+engine.Width(below) <= 78:
					line += below
				}
			}
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(crowded) > 0 {
		b.WriteString("\n" + tr(t, lang.M("REGIONS (too many counters to draw above)")) + "\n")
		for _, c := range crowded {
			b.WriteString(wrap(c, 78))
		}
	}
	b.WriteString("\n" + tr(t, lang.M("FLEETS (* above)")) + "\n")
	any := false
	col := 15 // the kinds' column: as wide as the widest name in t
	for k := World; k <= SolarSystem; k++ {
		col = max(col, engine.Width(tr(t, k.msg())))
	}
	for _, pl := range board.Places {
		if !hasFleets(pl.Name) {
			continue
		}
		any = true
		kind := tr(t, pl.Kind.msg())
		b.WriteString(hang(fmt.Sprintf("  %-9s %s ", pl.Name, kind+strings.Repeat(" ", col-engine.Width(kind))), fleets(pl.Name), 78))
	}
	if !any {
		b.WriteString("  " + tr(t, lang.M("none")) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(wrap(legend, 78))
	return b.String()
}

// Status lists the factions' totals in sentences, so that it reads well in
// a proportional font, then the reader's own standing orders.
func (v *view) Status() string {
	s := v.s
	var b strings.Builder
	switch s.Stage {
	case stageSetup:
		b.WriteString(wrap(v.t(lang.M("Setup: %s places fleet %d of 5.", s.Players[s.Placers[s.Placed]], s.Placed/len(s.Players)+1)), 78))
	case stageTurns:
		b.WriteString(wrap(v.t(lang.M("Turn %d, round %d: %s to play.", s.TurnN, s.Round, s.Players[s.Active])), 78))
		if w := s.Window; w != nil {
			b.WriteString(wrap(v.t(lang.M("Waiting for %s, in an interrupt window before %s's %s (A=%d, D=%d).",
				w.Target, s.Players[s.Active], w.Orders[w.Next], w.A, w.D)), 78))
		}
	default:
		var end any = s.Result.Text // a game ended before messages
		if s.Result.Msg != nil {
			end = *s.Result.Msg
		}
		b.WriteString(engine.Wrap(v.t(lang.M("Game over: %s.", end)), 78, "", "  ") + "\n")
	}
	if s.TurnLimit > 0 {
		b.WriteString(wrap(v.t(lang.M("The game ends after round %d.", s.TurnLimit)), 78))
	}
	for _, f := range s.factions() {
		fl, dv := s.total(f)
		space := 0
		for _, t := range board.Trajectories() {
			space += s.fleets(f, t.Name)
		}
		line := v.t(lang.M("%s (%s): %s, %s (%d in space)", f, s.letter(f), devsM(dv), fleetsM(fl), space))
		if f != un {
			if w := s.Agree[f]; w == "DRAW" {
				line += v.t(lang.M("; proposes a draw"))
			} else if w != "" {
				line += v.t(lang.M("; agrees that %s has won", w))
			}
			if fl+dv == 0 {
				line += v.t(lang.M("; off the board"))
			}
		}
		b.WriteString(engine.Wrap(line+".", 78, "", "  ") + "\n")
	}
	if v.player != "" {
		b.WriteString(v.standingOrders())
		var barred []string
		for _, w := range board.Names(isWorld) {
			if t := s.tasked(v.player, w); t.Fleets+t.Devs > 0 {
				barred = append(barred, v.t(lang.M("%s %s and %s", w, fleetsM(t.Fleets), devsM(t.Devs))))
			}
		}
		if len(barred) > 0 {
			b.WriteString(wrap(v.t(lang.M("Not giftable (they attacked in your last combat phase): %s.", strings.Join(barred, "; "))), 78))
		}
	}
	return b.String()
}

// wrap breaks text at spaces into lines of at most width columns.
func wrap(text string, width int) string {
	if engine.Width(text) <= width {
		return text + "\n"
	}
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && engine.Width(line)+1+engine.Width(w) > width {
			b.WriteString(line + "\n")
			line = "  " + w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// hang writes prefix and text in lines of at most width columns, the text
// broken at spaces and its later lines indented under its first, so a
// crowded row of a table keeps its columns.
func hang(prefix, text string, width int) string {
	var b strings.Builder
	line, indent := prefix, strings.Repeat(" ", engine.Width(prefix))
	started := false
	for _, w := range strings.Fields(text) {
		if started && engine.Width(line)+1+engine.Width(w) > width {
			b.WriteString(line + "\n")
			line, started = indent, false
		}
		if started {
			line += " "
		}
		line += w
		started = true
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}
