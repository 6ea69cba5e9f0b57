package daemon

import (
	"fmt"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/pbem/route"
	"orrery/templates"
)

// listPage is how many games one LIST answer shows.
const listPage = 20

// list answers LIST [page N]. Who asks decides what is listed: a stranger
// (in none of our games) sees only games open to JOIN, so that no one can
// make the bot mail out its whole catalogue; a player sees their own
// games first, then the open ones; the GM (address and GM secret) sees
// every game. Every list is cut in pages of 20.
func (d *Daemon) list(j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	all, err := byID.all()
	if err != nil {
		return err
	}
	scope := "stranger"
	switch {
	case d.isGM(j, r.Secret):
		scope, j.gm = "gm", true
	case j.isPlayer:
		scope = "player"
	}
	mine := map[string]bool{}
	for _, id := range j.mine {
		mine[id] = true
	}
	var shown []*game.Game
	if scope == "player" {
		for _, g := range all {
			if mine[g.ID] {
				shown = append(shown, g)
			}
		}
	}
	for _, g := range all {
		switch {
		case scope == "gm":
			shown = append(shown, g)
		case g.Signup && !mine[g.ID]:
			shown = append(shown, g)
		}
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Scope = scope
	data.Pages = max(1, (len(shown)+listPage-1)/listPage)
	data.Page = max(1, c.Page)
	if data.Page > data.Pages {
		return d.refuse(j, nil, game.Player{}, engine.LineError{Line: c.Line, Text: fmt.Sprintf("LIST page %d", c.Page),
			Msg: fmt.Sprintf("there are only %d pages", data.Pages), Fix: "send LIST for the first page"})
	}
	from := (data.Page - 1) * listPage
	for _, g := range shown[from:min(len(shown), from+listPage)] {
		sum := templates.GameSummary{ID: g.ID, Ruleset: g.Ruleset, Turn: g.Turn, Phase: g.Phase,
			Seated: len(g.Players), Seats: g.Seats, Signup: g.Signup, Over: g.Over(), Mine: mine[g.ID]}
		if rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset); err == nil {
			sum.Title = rs.Info().Title
		}
		data.Games = append(data.Games, sum)
	}
	for _, rs := range d.svc.Rulesets() {
		data.Rules = append(data.Rules, rs.Info())
	}
	return d.say(j, templates.List, data)
}
