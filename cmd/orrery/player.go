package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/settings"
)

// runPlayer shows and changes a player's settings, kept by address across
// games (pbem/settings): what players do by mail with SET and SETTINGS.
func runPlayer(ctx context.Context, e *env, args []string) error {
	about := "Shows or changes the settings of a player's address, kept across games:\n" +
		"the settings a player changes by mail with SET and SETTINGS.\n\n" +
		"  orrery player show ADDRESS\n" +
		"  orrery player set ADDRESS KEY VALUE   (VALUE default clears the key)\n" +
		"  orrery player vacation ADDRESS FROM TO  (first and last day away, 2026-12-20 2027-01-03:\n" +
		"      one absence for every game the address plays and joins later, as VACATION ALL)\n\nKeys:\n"
	for _, k := range settings.Keys {
		about += fmt.Sprintf("  %-5s %s (default %s; e.g. %s)\n", k.Name, k.Help, k.Default, strings.TrimPrefix(k.Example, "SET "))
	}
	about += "\nA new game (orrery game new, JOIN) starts each player in their LANG where\n" +
		"the ruleset writes in several languages (burning).\n\n" +
		"show also prints whether mail to the address arrives (its bounces), the\n" +
		"games it plays or observes (what MY GAMES mails), and its record: games\n" +
		"played, steps played and missed (no orders), seats abandoned, games won."
	fs := flags(e, "player", "player (show ADDRESS | set ADDRESS KEY VALUE | vacation ADDRESS FROM TO)", about)
	db := addDBFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errors.New("player needs show or set")
	}
	switch {
	case pos[0] == "show" && len(pos) == 2:
	case pos[0] == "set" && len(pos) == 4:
	case pos[0] == "vacation" && len(pos) == 4:
	default:
		return fmt.Errorf("usage: orrery player show ADDRESS | orrery player set ADDRESS KEY VALUE | orrery player vacation ADDRESS FROM TO")
	}
	addr := pos[1]
	if !strings.Contains(addr, "@") {
		return fmt.Errorf("%q is not a mail address", addr)
	}
	db.create = pos[0] == "set" // settings may come before any game
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	st := svc.Store()
	if pos[0] == "vacation" {
		return playerVacation(ctx, e, svc, addr, pos[2], pos[3])
	}
	if pos[0] == "set" {
		value, err := settings.Put(ctx, st, addr, pos[2], pos[3])
		var bad *settings.Error
		if errors.As(err, &bad) {
			return fmt.Errorf("%s: %s", bad.Msg, bad.Fix)
		}
		if err != nil {
			return err
		}
		// The engine keeps these in the games too: quiet hours in the
		// zone, the allowance's opt-out.
		switch strings.ToUpper(pos[2]) {
		case settings.TZ:
			if _, err := svc.SetZone(ctx, addr, value); err != nil {
				return err
			}
		case settings.AutoVacation:
			if err := svc.SetAutoVacation(ctx, addr, value != "off"); err != nil {
				return err
			}
		}
		if value == "" {
			fmt.Fprintf(e.stdout, "%s: %s cleared\n", settings.Address(addr), strings.ToUpper(pos[2]))
		} else {
			fmt.Fprintf(e.stdout, "%s: %s = %s\n", settings.Address(addr), strings.ToUpper(pos[2]), value)
		}
	}
	s, err := settings.Load(ctx, st, addr)
	if err != nil {
		return err
	}
	for _, k := range settings.Keys {
		v := s[k.Name]
		if v == "" {
			v = k.Default + " (not set: the default)"
		}
		fmt.Fprintf(e.stdout, "  %-9s %s\n", k.Name, v)
	}
	if pos[0] == "show" {
		if err := printAbsence(ctx, e, svc, addr); err != nil {
			return err
		}
		return playerGames(ctx, e, svc, addr, db.config)
	}
	return nil
}

// playerGames prints an address's mail state, games and record.
func playerGames(ctx context.Context, e *env, svc *game.Service, addr, cfgPath string) error {
	var st bounce.State
	if err := svc.Store().View(ctx, func(tx store.Tx) error {
		var err error
		st, err = bounce.Load(tx, addr)
		return err
	}); err != nil {
		return err
	}
	policy, err := bouncePolicy(cfgPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "mail: %s\n", st.Describe(policy))
	seats, err := svc.GamesOf(ctx, addr)
	if err != nil {
		return err
	}
	watched, err := svc.ObservedGames(ctx, addr)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "games:")
	if len(seats)+len(watched) == 0 {
		fmt.Fprintln(e.stdout, "  (none)")
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	line := func(id string, observing bool) {
		g, err := svc.Get(ctx, id)
		if err != nil {
			return
		}
		seat, state := "(observer)", ""
		switch {
		case g.Over():
			state = "over: " + g.Outcome.Text
		case g.Signup:
			state = fmt.Sprintf("signing up, %d of %d seats", len(g.Players), g.Seats)
		default:
			state = fmt.Sprintf("turn %d, %s", g.Turn, g.Phase)
		}
		orders := ""
		if p, ok := g.PlayerByEmail(addr); ok && !observing {
			seat = p.Name
			asked, in := false, true
			for _, q := range g.PromptsFor(p.Name) {
				if q.Kind.Blocks() {
					asked, in = true, in && contains(g.Answered, q.ID)
				}
			}
			switch {
			case asked && in:
				orders = "orders in"
			case asked:
				orders = "orders missing"
			}
		}
		deadline := ""
		if !g.Deadline.IsZero() && !g.Over() {
			deadline = "deadline " + g.Deadline.UTC().Format("2006-01-02 15:04 MST")
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.Ruleset, seat, state, orders, deadline)
	}
	for _, id := range seats {
		line(id, false)
	}
	for _, id := range watched {
		if !contains(seats, id) {
			line(id, true)
		}
	}
	w.Flush()
	rec, err := svc.PlayerRecord(ctx, addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "record: %s, %s played, %s (no orders), %s abandoned, %s won\n",
		count(rec.Games, "game", "games"), count(int(rec.Steps), "step", "steps"), count(rec.Missed, "missed", "missed"),
		count(rec.Abandoned, "seat", "seats"), count(rec.Won, "game", "games"))
	for _, sr := range rec.Seats {
		h := sr.Holder
		note := ""
		switch {
		case sr.Won:
			note = ", won"
		case h.Ended != "":
			note = ", " + h.Ended
		}
		fmt.Fprintf(e.stdout, "  %s (%s) seat %s, %s, %d missed%s\n", sr.Game, sr.Ruleset, sr.Seat, stepRange(h), h.Missed, note)
	}
	return nil
}
