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
	// A player's list starts with MY GAMES (their games and record);
	// then, for everyone, the games open to join: signing up, or with a
	// seat its player left that the game offers (seats.go).
	var shown []*game.Game
	for _, g := range all {
		switch {
		case scope == "gm":
			shown = append(shown, g)
		case (g.Signup || len(g.OpenSeats()) > 0) && !mine[g.ID]:
			shown = append(shown, g)
		}
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Scope = scope
	if scope == "player" && c.Page <= 1 {
		if data.Mine, data.Record, err = d.MyGames(byID.ctx, j.from); err != nil {
			return err
		}
		if len(data.Mine) > listPage {
			data.MineMore, data.Mine = len(data.Mine)-listPage, data.Mine[:listPage]
		}
	}
	data.Pages = max(1, (len(shown)+listPage-1)/listPage)
	data.Page = max(1, c.Page)
	if data.Page > data.Pages {
		return d.refuse(j, nil, game.Player{}, engine.LineError{Line: c.Line, Text: fmt.Sprintf("LIST page %d", c.Page),
			Msg: fmt.Sprintf("there are only %d pages", data.Pages), Fix: "send LIST for the first page"})
	}
	from := (data.Page - 1) * listPage
	for _, g := range shown[from:min(len(shown), from+listPage)] {
		sum := templates.GameSummary{ID: g.ID, Ruleset: g.Ruleset, Turn: g.Turn, Phase: g.Phase,
			Seated: len(g.Players), Seats: g.Seats, Signup: g.Signup, Over: g.Over(), Mine: mine[g.ID], Open: g.OpenSeats()}
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
