package main

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
)

// reportText renders a report as plain text, as `game show` prints it.
func reportText(r *game.Report) string {
	var b strings.Builder
	who := r.Player
	switch {
	case r.Public:
		who = "an observer (the public report)"
	case who == "":
		who = "the GM"
	}
	fmt.Fprintf(&b, "%s [%s] — turn %d, %s (step %d) — as %s\n\n", r.Title, r.Game, r.Turn, r.Phase, r.Step, who)
	b.WriteString(strings.TrimRight(r.Board, "\n"))
	b.WriteString("\n\n")
	b.WriteString(strings.TrimRight(r.Status, "\n"))
	b.WriteString("\n")
	if len(r.Events) > 0 {
		fmt.Fprintf(&b, "\nWhat happened (step %d, %s):\n", r.Step, r.Reason)
		for _, e := range r.Events {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	if len(r.Defaults) > 0 {
		fmt.Fprintf(&b, "\nNo orders came from %s: their defaults applied.\n", strings.Join(r.Defaults, ", "))
	}
	if len(r.Rolls) > 0 {
		b.WriteString("\nDice:\n")
		for _, d := range r.Rolls {
			fmt.Fprintf(&b, "  %s\n", d)
		}
	}
	fmt.Fprintf(&b, "\nSeed of step %d: %s\n  (its commitment was %s)\n", r.Step, r.RevealedSeed, r.RevealedCommitment)
	fmt.Fprintf(&b, "Commitment for step %d: %s\n", r.Step+1, r.NextCommitment)
	if r.Outcome.Over {
		fmt.Fprintf(&b, "\nGAME OVER: %s\n", r.Outcome.Text)
		return b.String()
	}
	for _, p := range r.Prompts {
		if p.Kind == engine.KindAnytime {
			fmt.Fprintf(&b, "\nAt any time: %s\n", p.Ask)
			continue
		}
		fmt.Fprintf(&b, "\nYour move: %s\n", p.Ask)
		if p.Default != "" {
			fmt.Fprintf(&b, "  (if nothing arrives: %s)\n", strings.ReplaceAll(p.Default, "\n", "; "))
		}
	}
	if len(r.Waiting) > 0 {
		fmt.Fprintf(&b, "\nWaiting for: %s\n", strings.Join(r.Waiting, ", "))
	}
	if r.Deadline != "" {
		fmt.Fprintf(&b, "Deadline: %s\n", r.Deadline)
	}
	return b.String()
}
