package draw

// This file adds a row of notes under a picture for what the side that
// sends it knows and the game does not: who plays a seat while its holder
// is away ("bob: played by eve"). A ruleset draws a picture from a view,
// and a view knows seats, not the people behind them; the mail side and
// the web pages add the notes to the picture the view drew.

// noteSize is the size of a note's letters, noteLine the height of each
// of its lines, noteInset their left and right margin.
const (
	noteSize  = 13
	noteLine  = 19
	noteInset = 16
	notePad   = 4 // above the first line and below the last
)

// WithNotes returns a copy of p with notes written under everything it
// holds, each wrapped to the picture's width, in the muted ink of the
// picture's other notes; the picture grows by their height. p itself is
// left as it was (a view may hand out the same picture twice), and no
// notes give p back.
func (p *Picture) WithNotes(notes ...string) *Picture {
	f := Font{Size: noteSize, Color: Muted}
	var lines []string
	for _, n := range notes {
		lines = append(lines, Wrap(n, f, float64(p.W)-2*noteInset)...)
	}
	if len(lines) == 0 {
		return p
	}
	c := *p
	c.Shapes = append(make([]Shape, 0, len(p.Shapes)+len(lines)), p.Shapes...)
	y := float64(p.H) + notePad + noteLine/2
	for _, l := range lines {
		c.Text(Pt(noteInset, y), l, f)
		y += noteLine
	}
	c.H = p.H + 2*notePad + noteLine*len(lines)
	return &c
}
