package earthman

import (
	"fmt"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// drawnPicture is the full rules' picture (draw.go's (*fullView).Picture)
// with its own words in the view's language: title, legend notes and
// text alternative. The disc's shared words (the "regions" heading, the
// UN's key…) follow the disc's tag, which the first edition's draw.go
// adds: once merged, set d.tag = v.tag() here and let Picture return
// v.drawnPicture().
func (v *fullView) drawnPicture() *draw.Picture {
	s := v.s
	d := disc{players: s.Players, you: v.player, capitals: true}
	d.regions = func(w string) []chip {
		var out []chip
		for _, reg := range s.Regions[w] {
			c := chip{seat: noSeat}
			switch {
			case reg.Devs > 0:
				c = chip{text: s.letterOf(reg.Owner, reg.AtRisk), seat: seatOf(s.Players, reg.Owner), you: reg.Owner == v.player && v.player != "", risk: reg.AtRisk}
				if reg.Devs > 1 {
					c.text += fmt.Sprint(reg.Devs)
				}
				if reg.Owner == un && reg.AtRisk {
					c.text += "!"
				}
			case reg.Devastation > 1:
				c = chip{text: fmt.Sprintf("#%d", reg.Devastation), seat: devSeat}
			case reg.Devastation == 1:
				c = chip{text: "#", seat: devSeat}
			}
			out = append(out, c)
		}
		return out
	}
	d.fleets = func(at string) []chip {
		var out []chip
		for i, p := range s.Players {
			f := s.Fleets[at][p]
			if f == nil || f.Ok+f.Risk == 0 {
				continue
			}
			t := fmt.Sprintf("%s%d", s.letterOf(p, false), f.Ok+f.Risk)
			if f.Risk > 0 {
				t += fmt.Sprintf("(%d!)", f.Risk)
			}
			out = append(out, chip{text: t, seat: i, you: p == v.player, risk: f.Risk > 0})
		}
		return out
	}
	d.pi = func(w string) string {
		if len(s.PI[w]) == 0 {
			return ""
		}
		out := "+"
		for _, p := range s.PI[w] {
			out += s.letterOf(p, false)
		}
		return out
	}
	d.notes = []string{v.t(lang.M("A region box shows its owner's letter (a capital: At Risk; U! a UN region At Risk) and how many " +
		"developments if more than one; # is Devastation (#2: two markers). +ab: a's and b's Political Influence. " +
		"a5(2!): five fleets, two of them At Risk. A dashed red edge: At Risk. ! marks a hostile world."))}
	var title lang.Msg
	switch s.Stage {
	case "prelude":
		title = lang.M("The Earthman's Burden · prelude: %s", s.Players[s.Preludes[0]])
	case "turns":
		title = lang.M("The Earthman's Burden · turn %d: %s to play", s.TurnN, s.Players[s.Active])
	default:
		title = lang.M("The Earthman's Burden · game over")
	}
	d.title = v.t(title)
	var vps []lang.Arg
	for _, p := range s.Players {
		vps = append(vps, lang.ArgOf(lang.M("%s %d VP", p, s.P[p].VP)))
	}
	d.summary = v.t(lang.M("%s. %s.", title, vps))
	return d.picture()
}
