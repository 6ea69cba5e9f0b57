package burning

import (
	"strings"
	"testing"

	"orrery/engine"
)

// TestWideBoardIsOnePiece (issue 44): the text board is cut into panels
// of at most 78 columns, and the HTML part's wide board is the same map
// in one piece: one header row, every row once.
func TestWideBoardIsOnePiece(t *testing.T) {
	s := newGame(t, []string{"ann", "bob", "cy", "dee", "eve", "fay"}, nil, "wide")
	v := s.View("ann")
	wb, ok := v.(engine.WideBoarder)
	if !ok {
		t.Fatal("burning's view has no wide board")
	}
	for i, l := range strings.Split(v.Board(), "\n") {
		if engine.Width(l) > 78 {
			t.Errorf("text board line %d is %d columns", i+1, engine.Width(l))
		}
	}
	rows := func(b string) int { return strings.Count(b, "\n  1 ") + strings.Count(b, "\n  1  ") }
	if s.Grid.W() > 3*secSize && rows(v.Board()) < 2 {
		t.Errorf("the %d-column map's text board is one panel: it cannot fit 78 columns", s.Grid.W())
	}
	t.Logf("grid %d wide; text panels %d", s.Grid.W(), rows(v.Board()))
	if n := rows(wb.WideBoard()); n != 1 {
		t.Errorf("the wide board has %d panels, want 1:\n%s", n, wb.WideBoard())
	}
}
