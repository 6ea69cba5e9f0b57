package main

import (
	"context"
	"fmt"
	"strings"

	"orrery/engine/game"
)

// seatName is the seat who names in game id, for the GM's commands that
// take a player (--as, game replace): a seat's name as it is, or the
// address of whoever holds a seat now. A seat that passed to another
// player keeps its name ("bob", played by eve), so the GM may know the
// player by address only. An address that holds no seat is refused,
// naming the seat it held before if it held one.
func seatName(ctx context.Context, svc *game.Service, id, who string) (string, error) {
	who = strings.TrimSpace(who)
	if !strings.Contains(who, "@") {
		return who, nil
	}
	g, err := svc.Get(ctx, id)
	if err != nil {
		return "", err
	}
	if p, ok := g.PlayerByEmail(who); ok {
		return p.Name, nil
	}
	for _, p := range g.Players {
		for _, h := range p.History(g) {
			if !h.Bot && game.SameAddress(h.Email, who) {
				return "", &game.UserError{Msg: fmt.Sprintf("%s holds no seat in %s now: it held %s until step %d (%s); give the seat's name", who, g.ID, p.Name, h.To, h.Ended)}
			}
		}
	}
	return "", &game.UserError{Msg: fmt.Sprintf("%s holds no seat in %s", who, g.ID)}
}
