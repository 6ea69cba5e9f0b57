package draw

import (
	"strings"
)

// Board draws a ruleset's text board (View.Board: at most 78 columns) as
// a picture, for a game with no board worth a drawing of its own (a dice
// game, a game of hands): each run of characters stands at its column, so
// the columns of a table stay columns in the proportional Go font. summary
// is the picture's text alternative (see Alt): it and the board must hold
// only what the view may show. A game with a board to draw describes it
// with shapes instead.
func Board(board, summary string) *Picture {
	const (
		width  = 800
		margin = 20
		column = (width - 2*margin) / 78.0
		line   = 20
	)
	lines := strings.Split(strings.TrimRight(board, "\n"), "\n")
	p := New(width, max(2*margin+line*len(lines), 200), Paper)
	p.Summary = summary
	f := Font{Size: 15, Color: Ink}
	for i, l := range lines {
		y := float64(margin + line*i + line/2)
		start := -1
		runes := []rune(l + " ")
		for j, r := range runes {
			if r != ' ' && start < 0 {
				start = j
			}
			if r == ' ' && start >= 0 {
				p.Text(Pt(margin+column*float64(start), y), string(runes[start:j]), f)
				start = -1
			}
		}
	}
	return p
}
