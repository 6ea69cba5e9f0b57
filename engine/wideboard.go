package engine

// WideBoarder is a view whose text board is cut into panels to stay
// within 78 columns (the text part of a mail), and that can draw it in
// one piece for a screen wide enough (the HTML part, which scrolls it
// sideways on a narrow one): a board read in two halves is a puzzle.
type WideBoarder interface {
	// WideBoard is Board in one piece, as wide as it needs.
	WideBoard() string
}
