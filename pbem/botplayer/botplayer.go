// Package botplayer plays games by mail the way people do, for the demo and
// the end-to-end tests: each player waits for the report of the current
// step in their own mailbox, then answers every question open to them with
// their ruleset's bot orders, in a reply to that report sent over SMTP.
//
// The players see their own view only (loaded from the server's store, as
// their report shows it); they never touch the game except through mail.
package botplayer

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/pbem/outbox"
)

// Players plays every seat of one game that has an address.
type Players struct {
	Service *game.Service
	Game    string
	Bot     string // the daemon's address
	// Fetch returns the raw messages of addr's inbox, oldest first.
	Fetch func(addr string) ([][]byte, error)
	// Send sends one mail as a player.
	Send func(ctx context.Context, m outbox.Mail) error
	Rand *rand.Rand
	// Stall is how long the game may make no progress (default 30 s).
	Stall time.Duration
	// Quiet are seats whose player has stopped sending: they never
	// answer (a test of abandoned seats).
	Quiet map[string]bool

	answered map[string]bool
}

// Play plays until the game is over or has passed maxTurns (0: no limit)
// and returns the game as it ended.
func (p *Players) Play(ctx context.Context, maxTurns int) (*game.Game, error) {
	if p.answered == nil {
		p.answered = map[string]bool{}
	}
	if p.Rand == nil {
		p.Rand = rand.New(rand.NewPCG(1, 2))
	}
	stall := p.Stall
	if stall == 0 {
		stall = 30 * time.Second
	}
	var lastStep uint64
	progress := time.Now()
	for {
		g, err := p.Service.Get(ctx, p.Game)
		if err != nil {
			return nil, err
		}
		if g.Step != lastStep {
			lastStep, progress = g.Step, time.Now()
		}
		if g.Over() || (maxTurns > 0 && g.Turn > maxTurns) {
			return g, nil
		}
		if time.Since(progress) > stall {
			return g, fmt.Errorf("game %s made no progress for %v at step %d (waiting for %v)", g.ID, stall, g.Step, g.Waiting())
		}
		sent := false
		for _, pl := range g.Players {
			if pl.Email == "" || pl.Bot || p.Quiet[pl.Name] {
				continue
			}
			n, err := p.turn(ctx, g, pl)
			if err != nil {
				return g, err
			}
			sent = sent || n
		}
		if !sent {
			select {
			case <-ctx.Done():
				return g, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

// turn answers pl's open questions once their report of this step is in.
func (p *Players) turn(ctx context.Context, g *game.Game, pl game.Player) (bool, error) {
	var open []engine.Prompt
	for _, pr := range g.PromptsFor(pl.Name) {
		if pr.Kind.Blocks() && !p.answered[key(pl.Name, g.Step, pr.ID)] && !slices.Contains(g.Answered, pr.ID) {
			open = append(open, pr)
		}
	}
	if len(open) == 0 {
		return false, nil
	}
	report, err := p.latestReport(pl.Email, g.Step)
	if err != nil || report == nil {
		return false, err
	}
	rs, err := engine.Find(p.Service.Rulesets(), g.Ruleset)
	if err != nil {
		return false, err
	}
	x, err := p.Service.Export(ctx, g.ID)
	if err != nil {
		return false, err
	}
	st, err := rs.LoadState(x.State)
	if err != nil {
		return false, err
	}
	view := st.View(pl.Name)
	subj := report.Header.Get("Subject")
	if dec, err := new(mimeDecoder).decode(subj); err == nil {
		subj = dec
	}
	if !strings.HasPrefix(strings.ToLower(subj), "re:") {
		subj = "Re: " + subj
	}
	parent := strings.Trim(report.Header.Get("Message-Id"), "<>")
	var refs []string
	for _, r := range strings.Fields(report.Header.Get("References")) {
		refs = append(refs, strings.Trim(r, "<>"))
	}
	for _, pr := range open {
		orders := rs.Bot(view, pr, p.Rand)
		m := outbox.Mail{MessageID: outbox.NewMessageID("players.example.org"),
			From: fmt.Sprintf("%s <%s>", strings.ToUpper(pl.Name[:1])+pl.Name[1:], pl.Email),
			To:   []string{p.Bot}, Subject: subj, Text: orders + "\n\n-- \n" + pl.Name + "\n", Date: time.Now(),
			InReplyTo: parent, References: append(refs, parent), Kind: "orders"}
		if err := p.Send(ctx, m); err != nil {
			return false, fmt.Errorf("%s sends orders: %w", pl.Name, err)
		}
		p.answered[key(pl.Name, g.Step, pr.ID)] = true
	}
	return true, nil
}

func key(player string, step uint64, prompt string) string {
	return fmt.Sprintf("%s/%d/%s", player, step, prompt)
}

// latestReport returns the game mail in addr's inbox that shows the latest
// step, if that is step or a later one, else nil. Mail may arrive out of
// order (an MTA delivers in parallel), so every message is looked at.
func (p *Players) latestReport(addr string, step uint64) (*mail.Message, error) {
	msgs, err := p.Fetch(addr)
	if err != nil {
		return nil, err
	}
	var best *mail.Message
	var bestStep uint64
	for _, raw := range msgs {
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			continue
		}
		s := m.Header.Get("X-Orrery-Step")
		if s == "" || m.Header.Get("X-Orrery-Game") != p.Game {
			continue
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err == nil && (best == nil || n >= bestStep) {
			best, bestStep = m, n
		}
	}
	if best == nil || bestStep < step {
		return nil, nil
	}
	return best, nil
}
