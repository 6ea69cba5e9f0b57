package draw_test

import (
	"strings"
	"testing"

	"orrery/engine/draw"
	"orrery/engine/draw/drawtest"
)

// TestBoardKeepsColumns: a text board drawn by draw.Board fits a phone,
// shows every word of the board and nothing else but its summary, and puts
// words of one column at one x whatever stands before them.
func TestBoardKeepsColumns(t *testing.T) {
	board := "ann   12  WWW\nbob    3  iii\n" + strings.Repeat("x", 78)
	p := draw.Board(board, "Scores of ann and bob")
	drawtest.Bounds(t, p)
	if got := strings.Join(p.Texts(), "|"); got != "Scores of ann and bob|ann|12|WWW|bob|3|iii|"+strings.Repeat("x", 78) {
		t.Errorf("texts %q", got)
	}
	x := map[string]float64{}
	for _, s := range p.Shapes {
		if tx, ok := s.(*draw.Text); ok {
			x[tx.Text] = tx.At.X
		}
	}
	if x["WWW"] != x["iii"] || x["ann"] != x["bob"] || x["12"] >= x["3"] {
		t.Errorf("columns moved: %v", x)
	}
	if p.Alt() != "Scores of ann and bob" {
		t.Errorf("alt %q", p.Alt())
	}
}
