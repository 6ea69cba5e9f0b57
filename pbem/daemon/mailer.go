package daemon

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"orrery/engine/game"
	"orrery/pbem/outbox"
)

// Mailer turns game changes into queued mail. Its Hook runs inside the
// transaction of every change made through a game.Service that has it
// (game.WithHooks), whether the change came from a mail, a deadline or the
// GM's command line, so every report and notice is queued exactly when the
// change commits.
type Mailer struct {
	From string // "Orrery <orrery@example.org>"
	// GM receives notices addressed to the game master ("" = none).
	GM string
	// Enqueue queues a mail inside tx: outbox.Enqueue, or a Queue's
	// Enqueue to wake its worker on commit.
	Enqueue func(tx *bolt.Tx, m outbox.Mail) error
	// Render builds the texts; nil uses the built-in texts.
	Render Renderer
}

func (m *Mailer) domain() string { return outbox.Domain(m.From) }

func (m *Mailer) render() Renderer {
	if m.Render != nil {
		return m.Render
	}
	return plainRenderer{}
}

// RootID is the Message-ID every mail of a game refers to, so that mail
// clients thread a whole game together.
func (m *Mailer) RootID(gameID string) string { return "game-" + gameID + "@" + m.domain() }

func (m *Mailer) enqueue(tx *bolt.Tx, out outbox.Mail) error {
	if out.From == "" {
		out.From = m.From
	}
	if m.Enqueue == nil {
		return outbox.Enqueue(tx, out)
	}
	return m.Enqueue(tx, out)
}

// gameMail is a mail about game g to one player, threaded under the game.
func (m *Mailer) gameMail(g *game.Game, p game.Player, kind string, c Content) outbox.Mail {
	root := m.RootID(g.ID)
	return outbox.Mail{
		To:         []string{p.Email},
		Subject:    fmt.Sprintf("[%s %s] %s", g.ID, p.Secret, c.Subject),
		Text:       c.Text,
		HTML:       c.HTML,
		InReplyTo:  root,
		References: []string{root},
		Auto:       "auto-generated",
		Headers:    map[string]string{"X-Orrery-Game": g.ID},
		Kind:       kind,
		Game:       g.ID,
	}
}

// Hook queues the mails a change causes: welcome mails for a new game,
// each player's report of every step, and notices.
func (m *Mailer) Hook(tx *bolt.Tx, c *game.Change) error {
	g := c.Game
	if g == nil {
		return nil
	}
	r := m.render()
	for _, st := range c.Steps {
		for _, p := range g.Players {
			if p.Email == "" || p.Bot {
				continue
			}
			rep, err := st.Report(p.Name)
			if err != nil {
				return fmt.Errorf("report of step %d for %s: %w", st.N, p.Name, err)
			}
			kind, content := "report", r.Report(g, p, rep)
			if st.N == 0 {
				// The setup step: the game has just started.
				kind, content = "welcome", r.Welcome(g, p, rep)
			}
			out := m.gameMail(g, p, kind, content)
			// The step the report shows: the demo's players answer the
			// report of the current step, as people would.
			out.Headers["X-Orrery-Step"] = fmt.Sprint(st.N)
			if err := m.enqueue(tx, out); err != nil {
				return err
			}
		}
	}
	for _, n := range c.Notices {
		for _, to := range n.To {
			if to == game.GM {
				if m.GM != "" {
					gm := game.Player{Name: "gm", Email: m.GM, Secret: "gm"}
					if err := m.enqueue(tx, m.gameMail(g, gm, "notice", r.Notice(g, gm, n))); err != nil {
						return err
					}
				}
				continue
			}
			p, ok := g.PlayerByName(to)
			if !ok || p.Email == "" || p.Bot {
				continue
			}
			if err := m.enqueue(tx, m.gameMail(g, p, "notice", r.Notice(g, p, n))); err != nil {
				return err
			}
		}
	}
	return nil
}
