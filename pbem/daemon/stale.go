package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/inmail"
	"orrery/pbem/route"
	"orrery/templates"
)

// # Stale copies
//
// A mail shows the step it was written against by answering one of our
// mails: every mail the bot sends about a game has a Message-ID that names
// the game, its rollback epoch and its step (Mailer.StepMessageID), and a
// reply carries it in In-Reply-To and References. A mail that answers none
// of ours shows no step and is current, whatever it says.
//
// Orders in a mail that answers an earlier step than the game's current one
// are plausibly stale, and held rather than applied, when
//   - it was written (its Date) before the current step began, or
//   - it was written before a rollback (another epoch), or
//   - the same orders, answering the same step, were applied before: a
//     copy sent again, with a new Message-ID, by a client or a relay.
// Anything else is a player's deliberate new mail answering an older
// report (sequential games move on between a player's picks), and is
// applied. A held mail gets an answer that lists the orders and asks the
// player to reply CONFIRM (which applies them once, then forgets them) or
// to send them again; held orders are never applied otherwise.

// stepIDPattern reads a Message-ID made by StepMessageID.
var stepIDPattern = regexp.MustCompile(`^[0-9a-fA-F]+\.([a-z0-9][a-z0-9-]{0,31})\.e(\d+)s(\d+)\.orrery@(.+)$`)

// StepShown returns the step of game gameID that m answers: the one named
// by In-Reply-To, else by the newest of References, among the Message-IDs
// of ours (domain is the bot's; "" accepts any) for that game.
func StepShown(m *inmail.Message, gameID, domain string) (epoch int, step uint64, ok bool) {
	read := func(id string) (int, uint64, bool) {
		sm := stepIDPattern.FindStringSubmatch(strings.Trim(id, "<> "))
		if sm == nil || sm[1] != gameID || domain != "" && !strings.EqualFold(sm[4], domain) {
			return 0, 0, false
		}
		e, err1 := strconv.Atoi(sm[2])
		s, err2 := strconv.ParseUint(sm[3], 10, 64)
		return e, s, err1 == nil && err2 == nil
	}
	for _, id := range m.InReplyTo {
		if e, s, ok := read(id); ok {
			return e, s, true
		}
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		if e, s, ok := read(m.References[i]); ok {
			return e, s, true
		}
	}
	return 0, 0, false
}

// heldRecord is orders held as a possibly stale copy, until CONFIRM.
type heldRecord struct {
	Game   string    `json:"game"`
	Player string    `json:"player"`
	Text   string    `json:"text"`
	From   string    `json:"from"` // the address that sent them
	At     time.Time `json:"at"`
}

// ordersHash identifies orders whatever their spacing and case.
func ordersHash(text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, strings.ToUpper(l))
		}
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

func appliedKey(g, player string, epoch int, step uint64, hash string) []byte {
	return fmt.Appendf(nil, "%s\x00%s\x00e%ds%d\x00%s", g, player, epoch, step, hash)
}

// staleReason says why orders in j's mail for player p of g are to be held
// (see above; templates.Held.Reason), or "" when they are current.
func (d *Daemon) staleReason(ctx context.Context, j *job, g *game.Game, p game.Player, text string) (string, error) {
	epoch, step, ok := StepShown(j.m, g.ID, d.mailer.domain())
	if !ok || epoch == g.Epoch && step == g.Step {
		return "", nil
	}
	j.shown = &shownStep{epoch: epoch, step: step}
	switch {
	case epoch != g.Epoch:
		return "rollback", nil
	case !j.m.Date.IsZero() && !g.LastResolve.IsZero() && j.m.Date.Before(g.LastResolve):
		return "step", nil
	}
	var seen bool
	err := d.st.View(ctx, func(tx store.Tx) error {
		if b := mailBucketRO(tx, BucketApplied); b != nil {
			seen = b.Get(appliedKey(g.ID, p.Name, epoch, step, ordersHash(text))) != nil
		}
		return nil
	})
	if seen {
		return "copy", err
	}
	return "", err
}

// hold answers j with the held mail; finish stores the orders under the
// answer's Message-ID, which a CONFIRM reply refers to.
func (d *Daemon) hold(j *job, g *game.Game, p game.Player, r *route.Result, reason string) error {
	j.game = g
	j.held = &heldRecord{Game: g.ID, Player: p.Name, Text: r.Orders, From: j.from, At: d.cfg.Now()}
	j.replyID = d.mailer.StepMessageID(g.ID, g.Epoch, g.Step)
	data := d.mailer.data(g, p, d.svc.Rulesets())
	data.Held = &templates.Held{WrittenStep: j.shown.step, Step: g.Step, Turn: g.Turn, Reason: reason}
	for _, l := range r.OrderLines {
		data.Held.Orders = append(data.Held.Orders, l.Text)
	}
	d.log.Info("orders held as a possibly stale copy", "game", g.ID, "player", p.Name, "why", reason)
	return d.say(j, templates.HeldOrders, data)
}

// confirm applies the orders held under one of the Message-IDs j's mail
// answers, once: the held record goes in the transaction that submits them.
func (d *Daemon) confirm(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	// A JOIN or an OBSERVE waiting for this confirmation (consent.go)?
	if recs, ok, err := d.findConsents(ctx, j, c); err != nil {
		return err
	} else if ok {
		return d.confirmConsents(ctx, j, r, c, recs, byID)
	}
	var key string
	var rec heldRecord
	err := d.st.View(ctx, func(tx store.Tx) error {
		b := mailBucketRO(tx, BucketHeld)
		if b == nil {
			return nil
		}
		for _, id := range append(append([]string(nil), j.m.InReplyTo...), j.m.References...) {
			if v := b.Get([]byte(strings.ToLower(id))); v != nil {
				key = strings.ToLower(id)
				return json.Unmarshal(v, &rec)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if key == "" {
		n := j.parts
		if done, err := d.partOf(ctx, j, n); err != nil || done != nil {
			// Confirmed by an earlier try of this very mail.
			j.parts++
			if done != nil {
				j.answers = append(j.answers, *done)
				j.applied++
			}
			return err
		}
		return d.refuse(j, byID.get(r.Game), game.Player{}, engine.LineErr(c.Line, "CONFIRM",
			lang.M("there are no held orders of yours for this mail to confirm (they were applied, or never held)"),
			lang.M("CONFIRM works in a reply to my mail that says your orders are held; or send your orders again")))
	}
	g := byID.get(rec.Game)
	p, ok, err := d.authenticate(ctx, j, g, rec.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	if p.Name != rec.Player {
		return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, "CONFIRM",
			lang.M("the held orders are another player's"), lang.M("confirm only your own orders, from your own address")))
	}
	return d.submit(ctx, j, g, p, rec.Text, nil, func(tx store.Tx) error {
		b, err := mailBucket(tx, BucketHeld)
		if err != nil {
			return err
		}
		return b.Delete([]byte(key))
	})
}

// shownStep is the step a mail answers (StepShown).
type shownStep struct {
	epoch int
	step  uint64
}

// mailBucketRO is a nested mail bucket in a read-only transaction, or nil.
func mailBucketRO(tx store.Tx, name []byte) store.Bucket {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil {
		return nil
	}
	return mail.Bucket(name)
}
