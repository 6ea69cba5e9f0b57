package game

import (
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
)

// receipt is the part that orders accepted for prompt p will be in the
// step's dice inputs (scheme 2) if they are still the player's orders when
// the step resolves: the same head, salt and canonical lines, so the same
// hash as the report's part list will show. The ack carries it, so that a
// player holds, before the step, proof of what the server accepted; after
// it, the report's list of parts (the receipts of every answer) and their
// digest, which the roll seed mixes, show that those were the orders
// resolved. Nil under scheme 1, which has no inputs.
//
// The step's answers are re-read from the stored canonical text when it
// resolves (parseAnswer), and reading canonical orders again gives them
// back unchanged, so the lines here are the lines there.
func (g *Game) receipt(st engine.State, p engine.Prompt, orders engine.Orders) *dice.Part {
	if g.Scheme() < dice.Scheme2 {
		return nil
	}
	n := g.Step + 1
	part := dice.Part{Head: p.Player + " " + p.ID + " sent"}
	if text := engine.OrdersText(orders); text != "" {
		part.Lines = strings.Split(text, "\n")
	}
	pub, _ := st.(engine.PublicOrders)
	if pub == nil || !pub.OrdersPublic(engine.Answer{Prompt: p, Orders: orders}) {
		part.Hidden, part.To, part.Salt = true, []string{p.Player}, dice.Salt(g.hiddenSeed(n), p.ID)
	}
	r := part.Sealed()
	return &r
}

// ReceiptCommand is the shell command that prints a part's hash with
// nothing but printf and sha256sum (POSIX sh), each argument quoted so
// that any order line goes through unchanged: what the ack gives a player
// to check their receipt, and the report's part list to compare it with.
func ReceiptCommand(p dice.Part) string { return strings.Join(ReceiptWords(p), " ") }

// ReceiptWords is ReceiptCommand in words, for a mail that folds a long
// command between them (a quoted word is never cut).
func ReceiptWords(p dice.Part) []string {
	words := []string{"printf", `'%s\n'`, shellQuote(p.Head)}
	if p.Hidden {
		words = append(words, shellQuote("salt "+p.Salt))
	}
	for _, l := range p.Lines {
		words = append(words, shellQuote(l))
	}
	return append(words, "|", "sha256sum")
}

// shellQuote quotes s for a POSIX shell: inside single quotes every byte
// stands for itself, and a single quote is written '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
