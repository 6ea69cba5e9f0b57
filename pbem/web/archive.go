package web

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"

	"orrery/engine/game"
	"orrery/engine/lang"
)

// File is one file of an archive, its name relative to the archive's folder.
type File struct {
	Name string
	Data []byte
}

// ArchiveOptions tune Archive.
type ArchiveOptions struct {
	// ExportRunning adds game.json for a game still running too. By
	// default the export comes only with a finished game: while a game
	// runs, its log holds orders some rulesets keep hidden.
	ExportRunning bool
	// Lang is the language the pages are written in (an archive is one
	// language: no reader to ask); "" is the game's own (every seated
	// player's), else English.
	Lang lang.Tag
}

// Archive returns a game's public pages as static files: index.html (the
// game's page), step-N.html, .json and (with a picture) .svg for every step,
// report.json, dice.html, feed.atom, the assets, and game.json, the game's
// export as PublicExport makes it. Links between them are relative, so the
// folder works from any static host or straight from disk. notes say what
// was left out and why, for the GM.
func (s *Site) Archive(ctx context.Context, id string, opt ArchiveOptions) (files []File, notes []string, err error) {
	g, err := s.cfg.Service.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if g.Signup {
		return nil, nil, &game.UserError{Msg: fmt.Sprintf("game %s has not started (%d of %d seats taken): there is nothing to archive yet", g.ID, len(g.Players), g.Seats)}
	}
	if !Listed(g) {
		notes = append(notes, fmt.Sprintf("game %s keeps its events among its players (observers: gm) and has no public pages on the server; the archive publishes its public view all the same", g.ID))
	}
	v := viewer{tag: opt.Lang}
	if v.tag == "" {
		v.tag = gameLang(g)
	}
	if !s.speaks(v.tag) {
		v.tag = lang.English
	}
	l := staticLinks()
	add := func(name string, f func() ([]byte, string, error)) error {
		data, _, err := f()
		if err != nil {
			return fmt.Errorf("archive %s: %w", name, err)
		}
		if data != nil {
			files = append(files, File{Name: name, Data: data})
		}
		return nil
	}
	for _, p := range []struct {
		name string
		f    pageFunc
	}{{"index.html", pageGame}, {"report.json", pageReportJSON}, {"dice.html", pageDice}} {
		if err := add(p.name, func() ([]byte, string, error) { return p.f(ctx, s, g, v, l, 0, "") }); err != nil {
			return nil, nil, err
		}
	}
	if err := add("feed.atom", func() ([]byte, string, error) { return s.feed(ctx, g, l, "", v.tag) }); err != nil {
		return nil, nil, err
	}
	for n := uint64(0); n <= g.Step; n++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := add(l.Step(n), func() ([]byte, string, error) { return pageStep(ctx, s, g, v, l, n, "") }); err != nil {
			return nil, nil, err
		}
		if err := add(l.StepJSON(n), func() ([]byte, string, error) { return pageStepJSON(ctx, s, g, v, l, n, "") }); err != nil {
			return nil, nil, err
		}
		if err := add(l.StepSVG(n), func() ([]byte, string, error) { return pageSVG(ctx, s, g, v, l, n, "") }); err != nil {
			return nil, nil, err
		}
	}
	for _, name := range assetNames(s) {
		files = append(files, File{Name: "assets/" + name, Data: s.assets[name].data})
	}
	if g.Over() || opt.ExportRunning {
		x, err := s.cfg.Service.Export(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		data, err := json.MarshalIndent(PublicExport(x), "", "  ")
		if err != nil {
			return nil, nil, err
		}
		files = append(files, File{Name: "game.json", Data: append(data, '\n')})
		if !g.Over() {
			notes = append(notes, "game.json holds every resolved step's orders, some of which the rules may keep hidden while the game runs; the dice secret is left out until the game ends")
		}
	} else {
		notes = append(notes, "game.json (the game's export) is left out while the game runs: its log holds orders the rules may keep hidden (add --export-running to write it anyway; the dice secret stays out until the game ends)")
	}
	return files, notes, nil
}

func assetNames(s *Site) []string {
	var out []string
	for name := range s.assets {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// PublicSecret replaces every player's secret in a public export: import
// needs one per seat, and this one is known to all, so it grants nothing
// on the server the archive came from.
const PublicSecret = "redacted"

var addressRE = regexp.MustCompile(`[^\s<>(),;:"']+@[^\s<>(),;:"']+`)

// PublicExport is a game's export fit to publish: no player's secret or
// address (a seat's earlier holders' included), no observer's, creator's
// or invited address, the dice secret only once the game is
// over, and of the log only what replays the game (creation, resolved
// orders, resolutions, rollbacks, the GM's edits and actions with addresses
// blanked): press, refused orders, notices and orders still waiting for
// their step are left out, and entries are numbered again. It still imports
// (`orrery game import`) and verifies by replay when the game is over.
func PublicExport(x *game.Export) *game.Export {
	g := *x.Game
	g.Players = nil
	for _, p := range x.Game.Players {
		p.Email, p.Secret = "", PublicSecret
		p.Holders = append([]game.Holder(nil), p.Holders...)
		for i := range p.Holders {
			p.Holders[i].Email = "" // who held the seat stays; their address does not
		}
		g.Players = append(g.Players, p)
	}
	g.Observers, g.Creator, g.Invited = nil, "", nil
	if !g.Over() {
		g.DiceSecret = ""
	}
	g.Answered = nil
	out := &game.Export{Format: x.Format, Game: &g, State: x.State}
	for _, e := range x.Log {
		switch e.Kind {
		case "create", "resolve", "rollback", "edit":
		case "orders":
			if e.Step > g.Step {
				continue // not yet resolved: still the player's secret
			}
		case "gm":
		default:
			continue
		}
		c := *e
		c.Ref = ""
		if c.Kind == "gm" {
			c.Text = addressRE.ReplaceAllString(c.Text, "(address)")
		}
		c.Seq = uint64(len(out.Log) + 1)
		out.Log = append(out.Log, &c)
	}
	return out
}
