package prosper

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// view is a player's view. Prosper hides nothing, so every player (and the
// GM) sees the whole board; the view still carries whose it is, for the
// parser and for marking "you" in the status.
type view struct {
	s      *State
	player string
	public bool // an observer's: Player is engine.Observer, no plans, no orders
	// lang is the language the board's legend and the status are drawn
	// in (Localize): "" or "en" for English, "ru".
	lang string
}

// View returns player's view ("" for the GM).
func (s *State) View(player string) engine.View { return &view{s: s, player: player} }

// PublicView is what an observer sees: the whole board, as every player
// does, without anyone's settling plan (a plan is its writer's alone).
func (s *State) PublicView() engine.View { return &view{s: s, public: true} }

func (v *view) Player() string {
	if v.public {
		return engine.Observer
	}
	return v.player
}

// Parse checks orders for prompt p against the board as it is now.
func (v *view) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	if v.player == "" || p.Player != v.player {
		return nil, []engine.LineError{engine.LineErr(0, "", lang.M("orders can only be checked for the player they are asked of"), noFix)}
	}
	mode := v.s.Phase_
	if p.Kind == engine.KindAnytime {
		mode = modePlan
		if !v.asked(p) {
			return nil, []engine.LineError{engine.LineErr(0, "", lang.M("no plan is asked of you now: a plan is sent while others pick, during colonisation"),
				lang.M("send your pick to the pick's prompt; its later SETTLE lines are your plan"))}
		}
	}
	orders, errs := parseAll(text, v.s, v.player, mode)
	if len(errs) > 0 {
		return nil, errs
	}
	out := engine.TextOrders{}
	for _, o := range orders {
		out = append(out, o.text())
	}
	if mode == phaseMove && len(out) == 0 {
		// An empty movement is DONE (engine.View.Parse: empty text is
		// turned into the orders it stands for, so the acknowledgement
		// says what will happen).
		out = append(out, "DONE")
	}
	return out, nil
}

// asked reports whether prompt p is open now, as it was asked.
func (v *view) asked(p engine.Prompt) bool {
	for _, q := range v.s.Prompts() {
		// Field by field: Msg is a pointer, new at every Prompts.
		if q.ID == p.ID && q.Player == p.Player && q.Kind == p.Kind && q.Ask == p.Ask && q.Default == p.Default {
			return true
		}
	}
	return false
}

// letter is the one-letter mark of a seat on the board: the initial of
// the player's name (A for ann, B for bob), so that the board reads
// without the legend; a seat whose initial an earlier seat has takes the
// next letter of its name not taken, then the first free letter of the
// alphabet. It depends on the seats alone, so it never changes in a game.
func (s *State) letter(p string) string {
	taken := map[rune]bool{}
	for _, x := range s.Seats {
		l := pickLetter(x, taken)
		taken[l] = true
		if x == p {
			return string(l)
		}
	}
	return "?"
}

func pickLetter(name string, taken map[rune]bool) rune {
	for _, r := range strings.ToUpper(name) {
		if r >= 'A' && r <= 'Z' && !taken[r] {
			return r
		}
	}
	for r := 'A'; r <= 'Z'; r++ {
		if !taken[r] {
			return r
		}
	}
	return '?'
}

// Board draws the hex map in at most 78 columns. Each planet is two lines,
// its name and "size owner ships" (natives show as n4, n12; a small empty
// planet as "-"); links between neighbours are drawn with - / \.
func (v *view) Board() string {
	s := v.s
	if len(s.Planets) == 0 {
		return ""
	}
	minR, maxR, minX, maxX := 1<<30, -(1 << 30), 1<<30, -(1 << 30)
	at := map[Hex]int{}
	for i, p := range s.Planets {
		at[p.Hex] = i
		x := 2*p.Hex.Q + p.Hex.R
		minR, maxR = min(minR, p.Hex.R), max(maxR, p.Hex.R)
		minX, maxX = min(minX, x), max(maxX, x)
	}
	const unit = 5 // columns per half cell
	width := (maxX-minX)*unit + 10
	var lines []string
	grid := func() []rune { return []rune(strings.Repeat(" ", width)) }
	put := func(row []rune, col int, text string) {
		for k, r := range []rune(text) {
			if col+k >= 0 && col+k < len(row) {
				row[col+k] = r
			}
		}
	}
	for r := minR; r <= maxR; r++ {
		name, info, link := grid(), grid(), grid()
		for i, p := range s.Planets {
			if p.Hex.R != r {
				continue
			}
			col := (2*p.Hex.Q + p.Hex.R - minX) * unit
			put(name, col+1, fit(p.Name, 8))
			put(info, col+1, fit(v.cellInfo(i), 8))
			// Link to the east neighbour on the same row.
			if _, ok := at[Hex{p.Hex.Q + 1, p.Hex.R}]; ok {
				put(name, col+9, "-")
				put(info, col+9, "-")
			}
			// Links to the row below: south-west and south-east.
			if _, ok := at[Hex{p.Hex.Q - 1, p.Hex.R + 1}]; ok {
				put(link, col+2, "/")
			}
			if _, ok := at[Hex{p.Hex.Q, p.Hex.R + 1}]; ok {
				put(link, col+7, "\\")
			}
		}
		lines = append(lines, trimRight(name), trimRight(info))
		if r < maxR {
			lines = append(lines, trimRight(link))
		}
	}
	l := v.lang
	legend := []string{"",
		say(l, lang.M("Each planet: name, then size (S M L) and its owner's letter and ships (B25),")),
		say(l, lang.M("or its natives (n12), or - for a small planet that no one holds."))}
	var owners []string
	for _, p := range s.Seats {
		mark := ""
		if p == v.player {
			mark = " " + say(l, lang.M("(you)"))
		}
		owners = append(owners, s.letter(p)+" = "+p+mark)
	}
	legend = append(legend, say(l, lang.M("Owners: %s.", strings.Join(owners, ", "))))
	legend = append(legend, say(l, lang.M("Links: - / \\ join neighbouring planets.")))
	return strings.Join(append(lines, legend...), "\n") + "\n"
}

func (v *view) cellInfo(i int) string {
	p := v.s.Planets[i]
	switch {
	case p.Owner != "":
		return fmt.Sprintf("%s %s%d", p.Size, v.s.letter(p.Owner), p.Ships)
	case p.Size.Natives() > 0:
		return fmt.Sprintf("%s n%d", p.Size, p.Size.Natives())
	}
	return string(p.Size) + " -"
}

func fit(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

func trimRight(r []rune) string { return strings.TrimRight(string(r), " ") }

// Status is the table of players and of planets, one fact per cell, so it
// reads in any font: the planet list names every planet's neighbours.
func (v *view) Status() string {
	s, l := v.s, v.lang
	t := tables[l]
	if t.seat == "" {
		t = tables[""]
	}
	var b strings.Builder
	switch s.Phase_ {
	case phaseSettle:
		b.WriteString(say(l, lang.M("Colonisation, pick %d: %s to settle.", s.Picks+1, s.picker())) + "\n")
	case phaseMove:
		b.WriteString(say(l, lang.M("Round %d, movement: %s to move (started by %s).", s.Round, s.mover(), s.Seats[s.Start])) + "\n")
	case phaseOver:
		// A long result (the turn limit's) goes on to a second line,
		// indented under the first, so that it reads as one paragraph
		// (also in the HTML part).
		words := strings.Fields(say(l, lang.M("Game over: %s", s.result())))
		wrapWords(&b, words[0]+" ", words[1:], reportWidth)
	}
	b.WriteString("\n" + t.seat + "\n")
	for i, p := range s.Seats {
		planets, ships, prod := 0, 0, 0
		for _, k := range s.owned(p, false) {
			planets++
			ships += s.Planets[k].Ships
			prod += s.Planets[k].Size.Production()
		}
		name := p
		if p == v.player {
			name += " *"
		}
		if s.out(p) {
			name += " " + say(l, lang.M("(out)"))
		}
		fmt.Fprintf(&b, t.seatRow, fmt.Sprintf("%d %s", i+1, s.letter(p)), fit(name, 12), planets, ships, prod, s.Supply[p])
	}
	if plan := s.Plans[v.player]; len(plan) > 0 {
		// One plan line is a word of the wrap, so a line of the plan is
		// never cut inside; a long plan goes on over several lines.
		words := append([]string(nil), plan...)
		for k := range words[:len(words)-1] {
			words[k] += ";"
		}
		b.WriteString("\n")
		wrapWords(&b, say(l, lang.M("Your settling plan: ")), words, reportWidth)
	}
	b.WriteString("\n" + t.planet + "\n")
	for i, p := range s.Planets {
		holder, ships := say(l, lang.M("natives")), p.Size.Natives()
		if p.Owner != "" {
			holder, ships = p.Owner, p.Ships
		}
		var ns []string
		for _, n := range s.neighbours(i) {
			ns = append(ns, s.Planets[n].Name)
		}
		head := fmt.Sprintf(t.planetRow, p.Name, say(l, p.Size.Msg()), fit(holder, 12), ships, p.Size.Limit())
		wrapWords(&b, head, ns, reportWidth)
	}
	return b.String()
}

// tables are the status's two tables in each language: headings and row
// formats, whose columns are as wide as their headings.
var tables = map[string]struct{ seat, seatRow, planet, planetRow string }{
	"": {
		"Seat  Player        Planets  Ships  Production  To place", "%-4s  %-12s  %7d  %5d  %10d  %8d\n",
		"Planet      Size    Held by       Ships  Limit  Neighbours", "%-10s  %-6s  %-12s  %5d  %5d  ",
	},
	langRU: {
		// Short headings: a phone shows the table in a narrow column.
		// Прирост is the ships a round adds, Запас the ships to place.
		"Место  Игрок         Планеты  Корабли  Прирост  Запас", "%-5s  %-12s  %7d  %7d  %7d  %5d\n",
		"Планета     Размер   Владелец      Корабли  Лимит  Соседи", "%-10s  %-7s  %-12s  %7d  %5d  ",
	},
}

// reportWidth is the widest line a report may have: mail readers wrap
// longer lines, which would break the tables.
const reportWidth = 78

// wrapWords writes head and then words separated by spaces, going on to
// lines indented as deep as head when a line would pass width. A word
// always goes on the first line, so a too-long head still shows its words.
func wrapWords(b *strings.Builder, head string, words []string, width int) {
	line := head
	indent := strings.Repeat(" ", len([]rune(head)))
	fresh := true
	for _, w := range words {
		if !fresh && len([]rune(line))+1+len([]rune(w)) > width {
			b.WriteString(line + "\n")
			line, fresh = indent, true
		}
		if !fresh {
			line += " "
		}
		line += w
		fresh = false
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
}
