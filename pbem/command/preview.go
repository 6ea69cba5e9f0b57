package command

import "orrery/engine/lang"

// Preview answers with what orders would do if the step resolved now: the
// mail's orders (below the PREVIEW line), or the orders held for the
// sender. The orders of a mail with PREVIEW are previewed, never sent.
const Preview Name = "PREVIEW"

// PreviewCmd is PREVIEW.
var PreviewCmd = Descriptor{
	Name:  Preview,
	Help:  []HelpLine{{"PREVIEW <game>", "what the orders below it (or alone: the orders you sent) would do if the step resolved now, seen as you would see it, with everyone else playing their defaults and dice that are not the game's; only to you, nothing is stored or sent (a few a step)"}},
	Usage: lang.M("write PREVIEW and maybe a game, like: PREVIEW demo1, then the orders to try below"),
	// Budgeted per seat and step by the daemon, it counts as one of a
	// mail's few commands rather than as a question answered once.
	Kind: Read, Limit: Changes,
	Parse:     oneGame(Preview, false),
	Examples:  []string{"PREVIEW demo1", "preview"},
	Malformed: "PREVIEW demo1 now",
}
