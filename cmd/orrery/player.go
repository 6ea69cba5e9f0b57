package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"orrery/pbem/settings"
)

// runPlayer shows and changes a player's settings, kept by address across
// games (pbem/settings): what players do by mail with SET and SETTINGS.
func runPlayer(ctx context.Context, e *env, args []string) error {
	about := "Shows or changes the settings of a player's address, kept across games:\n" +
		"the settings a player changes by mail with SET and SETTINGS.\n\n" +
		"  orrery player show ADDRESS\n" +
		"  orrery player set ADDRESS KEY VALUE   (VALUE default clears the key)\n\nKeys:\n"
	for _, k := range settings.Keys {
		about += fmt.Sprintf("  %-5s %s (default %s; e.g. %s)\n", k.Name, k.Help, k.Default, strings.TrimPrefix(k.Example, "SET "))
	}
	about += "\nA new game (orrery game new, JOIN) starts each player in their LANG where\n" +
		"the ruleset writes in several languages (burning)."
	fs := flags(e, "player", "player (show ADDRESS | set ADDRESS KEY VALUE)", about)
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
	default:
		return fmt.Errorf("usage: orrery player show ADDRESS | orrery player set ADDRESS KEY VALUE")
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
	if pos[0] == "set" {
		value, err := settings.Put(ctx, st, addr, pos[2], pos[3])
		var bad *settings.Error
		if errors.As(err, &bad) {
			return fmt.Errorf("%s: %s", bad.Msg, bad.Fix)
		}
		if err != nil {
			return err
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
		fmt.Fprintf(e.stdout, "  %-5s %s\n", k.Name, v)
	}
	return nil
}
