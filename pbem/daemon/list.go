package daemon

import (
	"context"
	"fmt"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
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
func (d *Daemon) list(_ context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	ctx := byID.ctx
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
	// The list is read a page at a time (game.ListGames), never whole.
	// A player's list starts with MY GAMES (their games and record, on
	// the first page); then, for everyone, the games open to JOIN:
	// signing up, or with a seat its player left that the game offers
	// (Game.OpenToJoin). The GM sees every game.
	filter := game.ListFilter{Open: true}
	if scope == "gm" {
		filter = game.ListFilter{}
	}
	total, err := d.svc.CountGames(ctx, filter)
	if err != nil {
		return err
	}
	if scope != "gm" {
		for _, id := range j.mine {
			if g := byID.get(id); g != nil && g.OpenToJoin() {
				total-- // in MY GAMES, not among the open ones
			}
		}
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Scope = scope
	if scope == "player" && c.Page <= 1 {
		if data.Mine, data.Record, err = d.MyGames(ctx, j.from); err != nil {
			return err
		}
		if len(data.Mine) > listPage {
			data.MineMore, data.Mine = len(data.Mine)-listPage, data.Mine[:listPage]
		}
	}
	data.Pages = max(1, (total+listPage-1)/listPage)
	data.Page = max(1, c.Page)
	if data.Page > data.Pages {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, fmt.Sprintf("LIST page %d", c.Page),
			lang.MN("there is only %d page", "there are only %d pages", data.Pages), lang.M("send LIST for the first page")))
	}
	skip := (data.Page - 1) * listPage
	var shown []*game.Game
	opt := game.ListOptions{ListFilter: filter, Limit: listPage}
	for len(shown) < listPage {
		page, err := d.svc.ListGames(ctx, opt)
		if err != nil {
			return err
		}
		for _, g := range page.Games {
			switch {
			case scope != "gm" && mine[g.ID]:
			case skip > 0:
				skip--
			case len(shown) < listPage:
				shown = append(shown, g)
			}
		}
		if page.Next == "" {
			break
		}
		opt.After = page.Next
	}
	for _, g := range shown {
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
