package main

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
)

// width is the widest line of a report: what a mail reader or a terminal
// shows without breaking lines at random.
const width = 78

// reportText renders a report as plain text, as `game show` prints it,
// within 78 columns (the rulesets keep their boards within them; events,
// dice and prompts are wrapped here under their own indent).
func reportText(r *game.Report) string {
	var b strings.Builder
	who := r.Player
	switch {
	case r.Public:
		who = "an observer (the public report)"
	case who == "":
		who = "the GM"
	}
	b.WriteString(engine.Wrap(fmt.Sprintf("%s [%s] — turn %d, %s (step %d) — as %s", r.Title, r.Game, r.Turn, r.Phase, r.Step, who), width, "", "  "))
	b.WriteString("\n\n")
	b.WriteString(strings.TrimRight(r.Board, "\n"))
	b.WriteString("\n\n")
	b.WriteString(strings.TrimRight(r.Status, "\n"))
	b.WriteString("\n")
	if len(r.Hands) > 0 {
		b.WriteString("\n")
		for _, h := range r.Hands {
			switch {
			case h.Bot:
				fmt.Fprintf(&b, "Seat %s, played by the computer.\n", h.Seat)
			case h.By == "":
				fmt.Fprintf(&b, "Seat %s, played by a new player.\n", h.Seat)
			default:
				fmt.Fprintf(&b, "Seat %s, played by %s.\n", h.Seat, h.By)
			}
		}
	}
	if len(r.Events) > 0 {
		b.WriteString("\n" + engine.Wrap(fmt.Sprintf("What happened (step %d, %s):", r.Step, r.Reason), width, "", "  ") + "\n")
		for _, e := range r.Events {
			b.WriteString(engine.Wrap(e, width, "  ", "    ") + "\n")
		}
	}
	if len(r.Defaults) > 0 {
		b.WriteString("\n" + engine.Wrap(fmt.Sprintf("No orders came from %s: their defaults applied.", strings.Join(r.Defaults, ", ")), width, "", "") + "\n")
	}
	if len(r.Rolls) > 0 {
		b.WriteString("\nDice:\n")
		for _, d := range r.Rolls {
			b.WriteString(engine.Wrap(d.String(), width, "  ", "      ") + "\n")
		}
	}
	if len(r.Rolls) == 0 {
		// Nothing to redo: the seed, to check against the commitment
		// shown before the step, and the next commitment keep the chain.
		fmt.Fprintf(&b, "\nNo dice. Seed of step %d:\n  %s\n", r.Step, r.RevealedSeed)
	} else {
		fmt.Fprintf(&b, "\nSeed of step %d:\n  %s\nits commitment, published before it:\n  %s\n", r.Step, r.RevealedSeed, r.RevealedCommitment)
	}
	if r.RollSeed != "" && len(r.Rolls) > 0 {
		b.WriteString("Its orders, in seat order, each with its SHA-256:\n")
		for _, p := range r.Inputs {
			b.WriteString("  " + p.Head + "\n")
			if p.Salt != "" {
				b.WriteString("    salt " + p.Salt + "\n")
			}
			for _, l := range p.Lines {
				b.WriteString("    " + l + "\n")
			}
			b.WriteString("    " + p.Hash + "\n")
		}
		fmt.Fprintf(&b, "their digest:\n  %s\nthe seed of the rolls, sha256 of SEED:DIGEST:\n  %s\n", r.Digest, r.RollSeed)
		for _, s := range r.Streams {
			fmt.Fprintf(&b, "the seed of the dice marked [%s]:\n  %s\n", s.Key, s.Seed)
		}
		if r.HiddenSeed != "" {
			fmt.Fprintf(&b, "the hidden seed of step %d, whose sha256 is its seed:\n  %s\n", r.Step, r.HiddenSeed)
		}
	}
	if r.LastOrders != "" && len(r.Rolls) > 0 {
		resent := ""
		if r.LastResent {
			resent = ", who sent them again after everyone else's were in"
		}
		b.WriteString(engine.Wrap(fmt.Sprintf("Last orders in: %s%s.", r.LastOrders, resent), width, "", "  ") + "\n")
	}
	fmt.Fprintf(&b, "Commitment for step %d:\n  %s\n", r.Step+1, r.NextCommitment)
	if r.Outcome.Over {
		b.WriteString("\n" + engine.Wrap("GAME OVER: "+r.Outcome.Text, width, "", "  ") + "\n")
		return b.String()
	}
	for _, p := range r.Prompts {
		if p.Kind == engine.KindAnytime {
			b.WriteString("\n" + engine.Wrap("At any time: "+p.Ask, width, "", "  ") + "\n")
			continue
		}
		b.WriteString("\n" + engine.Wrap("Your move: "+p.Ask, width, "", "  ") + "\n")
		if p.Default != "" {
			b.WriteString(engine.Wrap("(if nothing arrives: "+strings.ReplaceAll(p.Default, "\n", "; ")+")", width, "  ", "   ") + "\n")
		}
	}
	if len(r.Waiting) > 0 {
		b.WriteString("\n" + engine.Wrap("Waiting for: "+strings.Join(r.Waiting, ", "), width, "", "  ") + "\n")
	}
	if r.Deadline != "" {
		fmt.Fprintf(&b, "Deadline: %s\n", r.Deadline)
	}
	return b.String()
}
