package daemon

import (
	"fmt"
	"html"
	"strings"

	"orrery/engine/game"
)

// Content is a rendered mail: subject (without the [game] tag), plain text,
// and HTML with the same text in <pre> so webmail keeps boards aligned.
type Content struct {
	Subject, Text, HTML string
}

// Renderer builds the texts of every kind of mail. The daemon's built-in
// renderer is plain; the templates package can replace it.
type Renderer interface {
	Welcome(g *game.Game, p game.Player, r *game.Report) Content
	Report(g *game.Game, p game.Player, r *game.Report) Content
	Notice(g *game.Game, p game.Player, n game.Notice) Content
	Ack(g *game.Game, p game.Player, res *game.SubmitResult) Content
	// Reply is any other answer: HELP, LIST, refusals, several
	// commands' answers in one mail.
	Reply(subject string, sections []string) Content
}

type plainRenderer struct{}

func pre(text string) string {
	return "<!DOCTYPE html><html><body><pre style=\"font-family:monospace\">" + html.EscapeString(text) + "</pre></body></html>\n"
}

func content(subject, text string) Content {
	return Content{Subject: subject, Text: text, HTML: pre(text)}
}

func (plainRenderer) Welcome(g *game.Game, p game.Player, r *game.Report) Content {
	var b strings.Builder
	fmt.Fprintf(&b, "Welcome to game %s (%s), %s.\n\n", g.ID, g.Ruleset, p.Name)
	fmt.Fprintf(&b, "Your secret is: %s\n", p.Secret)
	fmt.Fprintf(&b, "Keep it: every mail you send to this game must carry it, in the\nsubject as [%s %s] (a reply to our mails already does) or on a\nline SECRET %s.\n\n", g.ID, p.Secret, p.Secret)
	writeReport(&b, r)
	return content(fmt.Sprintf("Welcome to %s", g.ID), b.String())
}

func (plainRenderer) Report(g *game.Game, p game.Player, r *game.Report) Content {
	var b strings.Builder
	writeReport(&b, r)
	subj := fmt.Sprintf("Turn %d, %s: report of step %d", r.Turn, r.Phase, r.Step)
	if r.Outcome.Over {
		subj = "Game over"
	}
	return content(subj, b.String())
}

func writeReport(b *strings.Builder, r *game.Report) {
	if r == nil {
		return
	}
	fmt.Fprintf(b, "Game %s (%s), turn %d, %s; step %d", r.Game, r.Title, r.Turn, r.Phase, r.Step)
	if r.Reason != "" {
		fmt.Fprintf(b, " (%s)", r.Reason)
	}
	b.WriteString("\n\n")
	if len(r.Events) > 0 {
		b.WriteString("EVENTS\n")
		for _, e := range r.Events {
			fmt.Fprintf(b, "  - %s\n", e)
		}
		b.WriteString("\n")
	}
	if len(r.Defaults) > 0 {
		fmt.Fprintf(b, "Played by default (no orders arrived): %s\n\n", strings.Join(r.Defaults, ", "))
	}
	if len(r.Rolls) > 0 {
		b.WriteString("DICE\n")
		for _, d := range r.Rolls {
			fmt.Fprintf(b, "  %s\n", d)
		}
		b.WriteString("\n")
	}
	if r.RevealedSeed != "" {
		fmt.Fprintf(b, "Seed of this step: %s\n  (its commitment, published before: %s)\n", r.RevealedSeed, r.RevealedCommitment)
	}
	if r.NextCommitment != "" {
		fmt.Fprintf(b, "Commitment to the next step's seed: %s\n", r.NextCommitment)
	}
	if r.DiceSecret != "" {
		fmt.Fprintf(b, "Dice secret of the game: %s\n", r.DiceSecret)
	}
	b.WriteString("\n")
	if r.Board != "" {
		b.WriteString("BOARD\n")
		b.WriteString(strings.TrimRight(r.Board, "\n"))
		b.WriteString("\n\n")
	}
	if r.Status != "" {
		b.WriteString("STATUS\n")
		b.WriteString(strings.TrimRight(r.Status, "\n"))
		b.WriteString("\n\n")
	}
	if r.Outcome.Over {
		fmt.Fprintf(b, "THE GAME IS OVER. %s\n", r.Outcome.Text)
		if len(r.Outcome.Winners) > 0 {
			fmt.Fprintf(b, "Winners: %s\n", strings.Join(r.Outcome.Winners, ", "))
		}
		return
	}
	if len(r.Prompts) > 0 {
		b.WriteString("WHAT IS ASKED OF YOU\n")
		for _, p := range r.Prompts {
			fmt.Fprintf(b, "  - %s\n", p.Ask)
			if p.Default != "" {
				fmt.Fprintf(b, "    (if you send nothing: %s)\n", strings.ReplaceAll(p.Default, "\n", "; "))
			}
		}
		b.WriteString("Reply to this mail with your orders, one a line.\n")
	} else {
		b.WriteString("Nothing is asked of you now.\n")
	}
	writeDeadline(b, r.Deadline, r.Waiting)
}

func writeDeadline(b *strings.Builder, deadline string, waiting []string) {
	if deadline != "" {
		fmt.Fprintf(b, "Deadline: %s\n", deadline)
	} else {
		b.WriteString("Deadline: none; the turn resolves when everyone has sent orders.\n")
	}
	if len(waiting) > 0 {
		fmt.Fprintf(b, "Still to send orders: %s\n", strings.Join(waiting, ", "))
	}
}

func (plainRenderer) Notice(g *game.Game, p game.Player, n game.Notice) Content {
	return content(fmt.Sprintf("Notice: %s", n.Kind), n.Text+"\n")
}

func (plainRenderer) Ack(g *game.Game, p game.Player, res *game.SubmitResult) Content {
	var b strings.Builder
	if res.Accepted {
		verb := "accepted"
		if res.Replaced {
			verb = "accepted, replacing your earlier orders"
		}
		fmt.Fprintf(&b, "Your orders for game %s, turn %d, are %s.\n", g.ID, g.Turn, verb)
		if res.Prompt.Ask != "" {
			fmt.Fprintf(&b, "They answer: %s\n", res.Prompt.Ask)
		}
		b.WriteString("\nAs understood:\n")
		if len(res.Orders) == 0 {
			b.WriteString("  (no orders)\n")
		}
		for _, o := range res.Orders {
			fmt.Fprintf(&b, "  %s\n", o)
		}
		b.WriteString("\nYou may send new orders until the turn resolves; the last accepted\nones count.\n")
	} else {
		fmt.Fprintf(&b, "Your orders for game %s were NOT accepted; nothing of them is kept.\nFix these lines and send all your orders again:\n\n", g.ID)
		for _, e := range res.Errors {
			if e.Line > 0 {
				fmt.Fprintf(&b, "  line %d: %s\n", e.Line, e.Text)
			}
			fmt.Fprintf(&b, "    %s", e.Msg)
			if e.Fix != "" {
				fmt.Fprintf(&b, " — %s", e.Fix)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	g2 := res.Game
	if g2 == nil {
		g2 = g
	}
	if len(res.Steps) > 0 {
		b.WriteString("Everyone has sent orders: the turn resolved; your report follows in\na separate mail.\n")
	} else {
		dl := ""
		if !g2.Deadline.IsZero() {
			dl = g2.Deadline.UTC().Format("2006-01-02 15:04 MST")
		}
		writeDeadline(&b, dl, g2.Waiting())
	}
	subj := "Orders accepted"
	if !res.Accepted {
		subj = "Orders NOT accepted"
	}
	return content(subj, b.String())
}

func (plainRenderer) Reply(subject string, sections []string) Content {
	return content(subject, strings.Join(sections, "\n\n")+"\n")
}
