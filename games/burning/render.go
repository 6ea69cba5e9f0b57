package burning

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// Board draws the map as panels of at most three sections across, two
// characters a cell: a symbol and the owner's seat number. Odd rows are
// drawn one character to the right, as the hex grid has them. Three
// sections are 71 columns: the text of a mail holds 78.
func (v view) Board() string { return v.board(3 * secSize) }

// WideBoard is the map in one panel (engine.WideBoarder), for the HTML
// part of a mail and a wide screen.
func (v view) WideBoard() string { return v.board(v.s.Grid.W()) }

func (v view) board(across int) string {
	s := v.s
	g := s.Grid
	var b strings.Builder
	planets := s.planetMap()
	for x0 := 0; x0 < g.W(); x0 += across {
		x1 := min(x0+across, g.W())
		// Column names stand in two header lines (first letter above the
		// second for columns past Z), one per cell of an unshifted row.
		if x1 > 26 {
			b.WriteString("    ")
			for x := x0; x < x1; x++ {
				n := colName(x)
				if len(n) == 2 {
					b.WriteString(n[:1] + " ")
				} else {
					b.WriteString("  ")
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("    ")
		for x := x0; x < x1; x++ {
			n := colName(x)
			b.WriteString(n[len(n)-1:] + " ")
		}
		b.WriteString("\n")
		for y := 0; y < g.H(); y++ {
			fmt.Fprintf(&b, "%3d ", y+1)
			if y%2 == 1 {
				b.WriteString(" ")
			}
			for x := x0; x < x1; x++ {
				b.WriteString(v.glyph(Cell{x, y}, planets[y*g.W()+x]))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(wrap(render(v.lang(), lang.M(legend)), 76))
	var seats []string
	for i, p := range s.Seats {
		seats = append(seats, fmt.Sprintf("%d %s", i+1, p))
	}
	b.WriteString(wrap(render(v.lang(), lang.M("Seats: %s.", strings.Join(seats, ", "))), 76))
	return b.String()
}

const legend = ". space  : planet  @ monolith  t forest  ^ mountain  F blast furnace  " +
	"G greenhouse  P spaceport  C cannon  T tower  * asteroid  S orbital station  R drilling rig  " +
	"H habitat  ships: s small  m medium  l large  x huge  k cargo; the digit after a symbol is its owner's seat."

var glyphs = map[string]byte{
	Forest: 't', Mountain: '^', Furnace: 'F', Greenhouse: 'G', Spaceport: 'P', CannonS: 'C', Tower: 'T',
	Station: 'S', Rig: 'R', Habitat: 'H', Small: 's', Medium: 'm', Large: 'l', Huge: 'x', Cargo: 'k',
}

func (v view) seatDigit(p string) byte {
	for i, q := range v.s.Seats {
		if q == p {
			return byte('1' + i)
		}
	}
	return ' '
}

// glyph is cell c's two characters; pl is the planet c belongs to, if any
// (State.planetMap).
func (v view) glyph(c Cell, pl *Planet) string {
	s := v.s
	if sh := s.shipAt(c); sh != nil {
		return string([]byte{glyphs[sh.Class], v.seatDigit(sh.Owner)})
	}
	if st := s.structAt(c); st != nil {
		return string([]byte{glyphs[st.Kind], v.seatDigit(st.Owner)})
	}
	if s.asteroidAt(c) {
		return "* "
	}
	if pl != nil {
		d := v.seatDigit(pl.Owner)
		if c == pl.Centre {
			if pl.Owner == "" {
				return "O "
			}
			return string([]byte{'@', d})
		}
		if i := pl.site(c); i >= 0 {
			return string([]byte{glyphs[pl.Sites[i].Kind], d})
		}
		return ": "
	}
	return ". "
}

func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(text) {
		n := len([]rune(w))
		if line > 0 && line+1+n > width {
			b.WriteString("\n")
			line = 0
		}
		if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += n
	}
	b.WriteString("\n")
	return b.String()
}

// Status lists players, planets (with the dice that made them), ships and
// space structures as sentences, one a line, readable in any font. Cargo
// and banks are shown only to their owner (and the GM; banks to all when
// the banks option is public).
func (v view) Status() string {
	s := v.s
	l := v.lang()
	var b strings.Builder
	// One sentence a thing, wrapped to 78 columns under its own start: a
	// planet with many structures ran to 400 columns in a mail reader.
	text := func(text string) { b.WriteString(engine.Wrap(text, 78, "", "    ") + "\n") }
	line := func(m lang.Msg) { text(render(l, m)) }
	if s.Done {
		line(lang.M("The game is over: %s", s.endText(l)))
	} else if s.AstPick != nil {
		line(lang.M("Setup: %s chooses the cell of asteroid %d.", s.AstPick.Chooser, s.AstPick.N))
	} else if s.Placing != nil {
		line(lang.M("Setup: every player places the tiles and the starting cannon of their home planet."))
	} else {
		line(lang.M("Turn %d. It is %s's turn; catastrophe: %s.", s.Round, s.active(), s.catTerm()))
	}
	b.WriteString("\n" + render(l, lang.M("Players")) + "\n")
	for i, p := range s.Seats {
		if s.out(p) {
			line(lang.M("%d. %s: eliminated.", i+1, p))
			continue
		}
		planets, ships := 0, 0
		for _, pl := range s.Planets {
			if pl.Owner == p {
				planets++
			}
		}
		for _, sh := range s.Ships {
			if sh.Owner == p {
				ships++
			}
		}
		bank := render(l, lang.M("hidden"))
		if v.player == "" || v.player == p || !s.Hidden {
			bank = s.Bank[p].String()
		}
		allies := strings.Join(s.Allies[p], ", ")
		if allies == "" {
			allies = render(l, lang.M("none"))
		}
		line(lang.M("%d. %s: %s, language %s, planets %d, ships %d, bank %s, allies: %s.", i+1, p, term(s.Faction[p]),
			strings.ToUpper(s.Lang[p]), planets, ships, bank, allies))
	}
	b.WriteString("\n" + render(l, lang.M("Planets")) + "\n")
	for _, pl := range s.Planets {
		owner := pl.Owner
		if owner == "" {
			owner = word(l, "nobody")
		}
		counts := map[string]int{}
		var structs []string
		for _, st := range pl.Sites {
			if isTile(st.Kind) {
				counts[st.Kind]++
			} else {
				structs = append(structs, word(l, st.Kind)+" "+st.Cell.String())
			}
		}
		var tiles []string
		for _, t := range []struct {
			kind  string
			count func(int) lang.Msg
		}{{Forest, forests}, {Mountain, mountains}} {
			n := counts[t.kind]
			switch {
			case n == 0:
			case l == langEN:
				// "5 forest", as the status has always said in English
				// (a status of an old game reads as it did).
				tiles = append(tiles, fmt.Sprintf("%d %s", n, word(l, t.kind)))
			default:
				tiles = append(tiles, render(l, t.count(n))) // "5 гор"
			}
		}
		line(lang.M("%s: centre %s (section %d), %s, owner %s; tiles: %s; structures: %s; dice: %s.", pl.Name, pl.Centre.String(),
			pl.Section, sizeBiome(pl.Size, pl.Biome), owner, orNone(l, tiles), orNone(l, structs), diceText(l, pl.Dice)))
	}
	if len(s.Ships) > 0 {
		b.WriteString("\n" + render(l, lang.M("Ships")) + "\n")
	}
	for _, sh := range s.Ships {
		u := s.unit(sh)
		if v.player == "" || v.player == sh.Owner {
			what := sh.Cargo.String()
			if sh.Load != "" {
				what += " + " + word(l, sh.Load)
			}
			if sh.Cargo.zero() && sh.Load == "" {
				what = render(l, lang.M("nothing"))
			}
			if sh.Class == Cargo {
				line(lang.M("%s %d (%s, %s) at %s, carries %s.", u.Name, sh.ID, sh.Owner, term(sh.Class), sh.Cell.String(), what))
				continue
			}
		}
		line(lang.M("%s %d (%s, %s) at %s.", u.Name, sh.ID, sh.Owner, term(sh.Class), sh.Cell.String()))
	}
	if len(s.Structs) > 0 {
		b.WriteString("\n" + render(l, lang.M("Space structures")) + "\n")
	}
	for _, st := range s.Structs {
		line(lang.M("%s (%s) at %s.", term(st.Kind), st.Owner, st.Cell.String()))
	}
	first := true
	for _, c := range s.Contracts {
		if (v.player != "" && v.player != c.From && v.player != c.To) || c.Cancelled {
			continue
		}
		if first {
			b.WriteString("\n" + render(l, lang.M("Contracts")) + "\n")
			first = false
		}
		st := render(l, lang.M("offered"))
		if c.Accepted {
			st = render(l, lang.M("accepted"))
		}
		if c.Expires > 0 {
			st += render(l, lang.M(", lapses at the start of turn %d", c.Expires))
		}
		if v.player == "" {
			line(lang.M("Contract %d: %s gives %s, %s gives %s, cargo ship %d; %s.", c.ID, c.From, c.Give.String(), c.To, c.Get.String(), c.Ship, st))
			continue
		}
		other, give, get := c.To, c.Give, c.Get
		if v.player == c.To {
			other, give, get = c.From, c.Get, c.Give
		}
		line(lang.M("Contract %d with %s: you give %s, they give %s, cargo ship %d; %s.", c.ID, other, give.String(), get.String(), c.Ship, st))
	}
	if adv := s.Advance[v.player]; v.player != "" && len(adv) > 0 {
		b.WriteString("\n")
		line(lang.M("Your advance orders: %s", strings.Join(adv, "; ")))
	}
	b.WriteString("\n")
	b.WriteString(wrap(render(l, lang.M("Asteroids (shield 18): %s.", orNone(l, strings.Fields(cellList(s.Asteroids))))), 76))
	b.WriteString("\n" + render(l, lang.M("Setup dice")) + "\n")
	for _, d := range s.SetupDice {
		text(diceText(l, d))
	}
	return b.String()
}

func orNone(l string, list []string) string {
	if len(list) == 0 {
		return render(l, lang.M("none"))
	}
	return strings.Join(list, ", ")
}
