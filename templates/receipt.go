package templates

import (
	"orrery/engine/dice"
	"orrery/engine/game"
)

// receiptShell is the command that prints the hash of receipt p, folded
// between its words for a text mail, indented by two.
func receiptShell(p dice.Part) string { return shell(2, game.ReceiptWords(p)...) }
