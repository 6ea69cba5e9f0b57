package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/settings"
	"orrery/templates"
)

// This file is deliverability (issue 18): the delivery status
// notifications that answer our own mail are counted per address
// (pbem/bounce); an address with too many hard bounces is unreachable: it
// is mailed no more, and the seats it holds play their defaults for the
// game's abandon window, then are abandoned under its policy, unless the
// address writes again first (engine/game's MarkUnreachable,
// MarkReachable); the GM and the other players are told. Mail the outbox
// gives up on is reported to the GM. It also holds the mailer's last word
// on every mail: nothing to an unreachable address, no reminders to those
// who said REMINDERS off, and the news of those who said DIGEST on kept
// for their daily digest (digest.go).

// digestKinds are the notices a digest gathers (the game's news). The
// others come at once: reminders (REMINDERS says), press, a seat changing
// hands, answers to the player's own commands.
var digestKinds = map[string]bool{"deadline": true, "paused": true, "resumed": true, "rollback": true, "message": true,
	"replaced": true, "kicked": true, "resigned": true, "abandoned": true, "unreachable": true, "late-others": true,
	"joined": true, "vacation": true, "back": true}

// post queues out, or keeps news for the addressee's digest when they
// asked for one (news is nil for mail that always goes at once).
func (m *Mailer) post(tx store.Tx, out outbox.Mail, news *digestNews) error {
	if news != nil && len(out.To) == 1 {
		if s, err := settings.Get(tx, out.To[0]); err == nil && s.DigestOn() {
			if bounce.Complained(tx, out.To[0]) {
				// No digest to an address that complained
				// (complaint.go): its own reports go at once, the
				// rest of the news not at all.
				if news.Kind != "report" {
					return nil
				}
				return m.enqueue(tx, out)
			}
			return holdNews(tx, out.To[0], news)
		}
	}
	return m.enqueue(tx, out)
}

// remindersOff reports whether addr asked for no reminders, or complained
// of our mail as spam (complaint.go).
func remindersOff(tx store.Tx, addr string) bool {
	s, err := settings.Get(tx, addr)
	return err == nil && s.RemindersOff() || bounce.Complained(tx, addr)
}

// noticeToAddresses mails notice n to the addresses it names directly: a
// seat's former holder (who is in the game no more), told what happened,
// or an address invited to a game (kept as a consent: consent.go).
func (m *Mailer) noticeToAddresses(tx store.Tx, g *game.Game, n game.Notice) error {
	for _, addr := range n.Addresses {
		d := m.data(g, game.Player{Name: n.Seat}, m.Rulesets)
		d.Deadline = time.Time{} // not theirs any more
		c, err := m.renderNotice(d, readerOf(tx, addr), n)
		if err != nil {
			return err
		}
		out := m.gameMail(g, addr, "notice", c)
		if err := m.enqueue(tx, out); err != nil {
			return err
		}
		if n.Kind == "invite" {
			// A JOIN in reply to it needs no confirmation (consent.go).
			if err := keepInvitation(tx, g.ID, addr, out.MessageID, g.Updated); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameAddress compares two addresses the one way addresses are compared
// (game.SameAddress), each maybe with a display name.
func sameAddress(a, b string) bool { return game.SameAddress(bareAddress(a), bareAddress(b)) }

// isDSN reports whether m is a report on the delivery of a mail.
func isDSN(reportType string) bool { return reportType == "delivery-status" }

// envelope is the outbox's Options.Envelope: the VERP address of the
// mail numbered seq.
func (d *Daemon) envelope(seq uint64, _ outbox.Mail) string { return d.verp.Address(seq) }

// verpKey returns the VERP key, read from the database the first time
// when New did not make it (a daemon without a queue: mail check).
func (d *Daemon) verpKey(ctx context.Context) bounce.VERP {
	if d.verp.Key == nil {
		d.st.View(ctx, func(tx store.Tx) error {
			d.verp.Key, _ = bounce.VERPKey(tx, false)
			return nil
		})
	}
	return d.verp
}

// dsn handles a delivery status notification: it is never answered. A
// bounce of a mail we sent counts against the address that mail went to,
// once per mail, in the transaction that records the DSN as handled.
//
// Which mail it is, is told by the address the DSN was delivered to: the
// mail's VERP envelope sender, whose token names it (bounce.VERP). What
// the report says (its Message-ID, its recipients) anyone can write: a
// stranger who got one mail from us, or saw one of bob's, could
// otherwise make bob unreachable with three forged reports. Under
// bounces.verp: off the quoted Message-ID is all there is, so the DSN
// must then pass sender_auth as any mail must.
//
// The work is bounded whatever the report holds: Parse reads a few dozen
// recipient blocks at most, the sent record is found by its key (or, with
// VERP off, by FindSent's walk of the window), and one event per mail is
// noted.
func (d *Daemon) dsn(ctx context.Context, j *job) (imapin.Disposition, error) {
	j.noReply = true
	rep, err := bounce.Parse(j.msg.Raw)
	if err != nil {
		j.rejected, j.why = true, err.Error()
		return d.finish(ctx, j)
	}
	now := d.cfg.Now().UTC()
	seq, ok, err := d.reportOn(ctx, j, "bounce", "delivery status notification", bounce.EnvelopeRecipients(j.msg.Raw), rep.MessageID)
	if err != nil {
		return 0, err
	}
	if !ok {
		return d.finish(ctx, j)
	}
	var became []string
	j.why = "delivery status notification: nothing of ours"
	j.commit = func(tx store.Tx) error {
		became = nil
		sent, err := d.reportedMail(tx, j, "delivery status notification", seq, rep.MessageID, now)
		if err != nil || sent == nil {
			return err
		}
		// The worst the report says of each recipient of that mail.
		kinds := map[string]bounce.Kind{}
		var order []string
		status := map[string]bounce.Recipient{}
		worst := bounce.None
		for _, rc := range rep.Recipients {
			kind := rc.Kind()
			if kind == bounce.None {
				continue
			}
			addr := ""
			for _, to := range sent.To {
				if k := bounce.Key(bareAddress(to)); k == rc.Address() || k == rc.Final {
					addr = bareAddress(to)
				}
			}
			if addr == "" && len(sent.To) == 1 {
				addr = bareAddress(sent.To[0]) // a forwarder rewrote the recipient
			}
			if addr == "" {
				continue
			}
			if _, seen := kinds[addr]; !seen {
				order = append(order, addr)
			}
			if kind > kinds[addr] {
				kinds[addr], status[addr] = kind, rc
			}
			worst = max(worst, kind)
		}
		if worst == bounce.None {
			return nil
		}
		news, err := outbox.MarkBounced(tx, sent, worst.String())
		if err != nil || !news {
			if err == nil {
				j.why = fmt.Sprintf("delivery status notification about mail %d (%s), whose bounce was counted already", sent.Seq, sent.MessageID)
			}
			return err
		}
		var counted []string
		for _, addr := range order {
			kind, rc := kinds[addr], status[addr]
			ev := bounce.Event{Time: now, Kind: kind.String(), Status: rc.Status, Diagnostic: rc.Diagnostic, Game: sent.Game, MessageID: sent.MessageID}
			b, _, err := bounce.Note(tx, addr, ev, d.cfg.Bounces)
			if err != nil {
				return err
			}
			if b {
				became = append(became, addr)
			}
			counted = append(counted, fmt.Sprintf("%s bounce of %s (%s)", kind, addr, rc.Status))
		}
		j.why = "delivery status notification: " + strings.Join(counted, ", ")
		return nil
	}
	disp, err := d.finish(ctx, j)
	if err != nil {
		return disp, err
	}
	d.log.Info("bounce", "why", j.why, "message_id", rep.MessageID)
	for _, addr := range became {
		if err := d.settleUnreachable(ctx, addr); err != nil {
			return disp, err
		}
	}
	return disp, nil
}

// reportOn finds, before its transaction, which of our mails a report (a
// DSN, a complaint; what names it for people, kind for the log) is about.
// With VERP it is the mail whose token one of the report's envelope
// recipients carries; with VERP off the report is matched later by the
// Message-ID it quotes, and must first pass sender authentication like any
// mail. ok false: the report counts for nothing, j says why (finish it);
// an error: DNS trouble, leave it in the inbox for a later try.
func (d *Daemon) reportOn(ctx context.Context, j *job, kind, what string, envelopes []string, messageID string) (seq uint64, ok bool, err error) {
	if !d.cfg.Bounces.NoVERP {
		v := d.verpKey(ctx)
		for _, a := range envelopes {
			if seq, ok = v.Seq(a); ok {
				return seq, true, nil
			}
		}
		j.why = what + " not addressed to a bounce address of ours: not counted"
		d.log.Info(kind, "why", j.why, "message_id", messageID)
		return 0, false, nil
	}
	v, err := d.checkSender(ctx, j.msg.Raw, j.m)
	if err != nil {
		return 0, false, err
	}
	if v.Refuse {
		j.rejected, j.why = true, what+" from a sender not authenticated: not counted ("+v.Why+")"
		d.log.Warn(kind, "why", j.why, "message_id", messageID)
		return 0, false, nil
	}
	return 0, true, nil
}

// reportedMail reads, in tx, the sent record of the mail a report is
// about (reportOn): by its outbox number under VERP, else by the
// Message-ID the report quotes; nil, with j.why saying so, when no mail of
// ours within the bounce window is that one.
func (d *Daemon) reportedMail(tx store.Tx, j *job, what string, seq uint64, messageID string, now time.Time) (*outbox.Record, error) {
	since := now.Add(-d.cfg.Bounces.Window)
	if !d.cfg.Bounces.NoVERP {
		sent, ok, err := outbox.SentRecord(tx, seq)
		if err != nil {
			return nil, err
		}
		if !ok || sent.Sent.Before(since) {
			j.why = fmt.Sprintf("%s about mail %d, which I have no record of sending within %s", what, seq, d.cfg.Bounces.Window)
			return nil, nil
		}
		return sent, nil
	}
	if !strings.HasSuffix(strings.ToLower(messageID), strings.ToLower(d.mailer.OwnSuffix())) {
		j.why = what + " about a mail that is not ours (" + messageID + ")"
		return nil, nil
	}
	sent, ok, err := outbox.FindSent(tx, messageID, since)
	if err != nil || !ok {
		if err == nil {
			j.why = what + " about a mail I have no record of sending (" + messageID + ")"
		}
		return nil, err
	}
	return sent, nil
}

// settleUnreachable tells every game in which addr holds a seat that its
// mail bounces (each keeps the seat for its abandon window, then applies
// its abandon policy, and tells the GM and the other players), then marks
// the address settled. A crash in between leaves it unsettled, and
// Maintain finishes it.
func (d *Daemon) settleUnreachable(ctx context.Context, addr string) error {
	var st bounce.State
	if err := d.st.View(ctx, func(tx store.Tx) error {
		var err error
		st, err = bounce.Load(tx, addr)
		return err
	}); err != nil {
		return err
	}
	if st.Unreachable.IsZero() || st.Settled {
		return nil
	}
	ids, err := d.svc.GamesOf(ctx, addr)
	if err != nil {
		return err
	}
	seats := 0
	for _, id := range ids {
		_, ns, err := d.svc.MarkUnreachable(ctx, id, addr, st.Why)
		if err != nil {
			return fmt.Errorf("mark %s unreachable in %s: %w", addr, id, err)
		}
		if len(ns) > 0 {
			seats++
		}
	}
	d.log.Warn("address unreachable: no longer mailed", "address", addr, "why", st.Why, "seats", seats)
	return d.st.Update(ctx, func(tx store.Tx) error {
		if seats == 0 && d.cfg.GM != "" {
			// No seat to tell anyone of: the GM hears of it alone.
			if err := d.gmMail(tx, nil, "unreachable", lang.M("Mail to %s bounces (%s): I write to it no more.", addr, st.Why)); err != nil {
				return err
			}
		}
		return bounce.Settle(tx, addr)
	})
}

// gmMail queues a notice of kind to the GM (about game g, or none).
func (d *Daemon) gmMail(tx store.Tx, g *game.Game, kind string, m lang.Msg) error {
	data := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
	data.Notice = &game.Notice{Kind: kind}
	data.Notice.Tell(m)
	d.mailer.speak(data, readerOf(tx, bareAddress(d.cfg.GM)), nil)
	c, err := d.mailer.Render.Render(templates.Notice, data)
	if err != nil {
		return err
	}
	out := outbox.Mail{To: []string{bareAddress(d.cfg.GM)}, Subject: c.Subject, Text: c.Text, HTML: c.HTML,
		Auto: "auto-generated", Kind: "notice"}
	if g != nil {
		out = d.mailer.gameMail(g, bareAddress(d.cfg.GM), "notice", c)
	}
	return d.mailer.enqueue(tx, out)
}

// deadMail is the outbox's OnDead: the GM is told of a mail given up on
// (never of their own, which would only be given up on in turn), and a
// mail the server refused for good counts as a hard bounce of its
// address, as a DSN would.
func (d *Daemon) deadMail(tx store.Tx, it outbox.Item, permanent bool) error {
	now := d.cfg.Now().UTC()
	to := strings.Join(it.Mail.To, ", ")
	if permanent {
		for _, addr := range it.Mail.To {
			ev := bounce.Event{Time: now, Kind: bounce.Hard.String(), Diagnostic: it.LastError, Game: it.Mail.Game, MessageID: it.Mail.MessageID}
			if _, _, err := bounce.Note(tx, bareAddress(addr), ev, d.cfg.Bounces); err != nil {
				return err
			}
		}
	}
	gm := bareAddress(d.cfg.GM)
	toGM := false
	for _, a := range it.Mail.To {
		toGM = toGM || sameAddress(a, gm)
	}
	if gm == "" || toGM {
		d.log.Error("outbox gave up on a mail", "to", to, "kind", it.Mail.Kind, "err", it.LastError)
		return nil
	}
	queued := it.Queued.UTC()
	var g *game.Game
	text := lang.M("I gave up on a mail to %s (queued %s); the last error was: %s", to, queued, it.LastError)
	if it.Mail.Game != "" {
		if gg, err := d.svc.GetTx(tx, it.Mail.Game); err == nil {
			g = gg
		}
		text = lang.M("I gave up on a mail to %s (game %s, queued %s); the last error was: %s", to, it.Mail.Game, queued, it.LastError)
	}
	return d.gmMail(tx, g, "undelivered", text)
}

// Maintain does what the daemon owes on its own at each tick (Run calls
// it; tests may too): finishing unreachable addresses whose games were not
// all told (a crash came between), and sending the digests that are due.
func (d *Daemon) Maintain(ctx context.Context) error {
	var addrs []string
	if err := d.st.View(ctx, func(tx store.Tx) error {
		var err error
		addrs, err = bounce.Unsettled(tx)
		return err
	}); err != nil {
		return err
	}
	for _, a := range addrs {
		if err := d.settleUnreachable(ctx, a); err != nil {
			return err
		}
	}
	return d.sendDigests(ctx)
}

// welcomeBack forgets that j's sender was unreachable: they write again,
// so their mail works; the answer says so. A seat the address still holds
// in the abandon window (engine/game's MarkReachable) is theirs again
// first: in one transaction with the address made reachable here, so that
// the news of what happened while their mail bounced (a mail for each such
// game) goes out to them, and so does every mail this one's handling makes
// (the report their orders complete). A crash after it leaves nothing to
// give back the next time, and this answer says only that mail works.
func (d *Daemon) welcomeBack(ctx context.Context, j *job) error {
	var st bounce.State
	if err := d.st.View(ctx, func(tx store.Tx) error {
		var err error
		st, err = bounce.Load(tx, j.from)
		return err
	}); err != nil || st.Unreachable.IsZero() {
		return err
	}
	kept := 0
	if len(j.mine) > 0 {
		ns, err := d.svc.MarkReachable(ctx, j.from, j.mine, func(tx store.Tx, _ *game.Change) error {
			_, err := bounce.Clear(tx, j.from) // before the mailer's hook mails them
			return err
		})
		if err != nil {
			return fmt.Errorf("give %s its seats back: %w", j.from, err)
		}
		for _, n := range ns {
			if n.Kind == "reachable" {
				kept++
			}
		}
	}
	prev := j.commit
	j.commit = func(tx store.Tx) error {
		if prev != nil {
			if err := prev(tx); err != nil {
				return err
			}
		}
		_, err := bounce.Clear(tx, j.from)
		return err
	}
	since := st.Unreachable.UTC()
	text := lang.M("Mail to you bounced (%s), so I stopped writing to you on %s. Now that you write again, I write to you again. A seat you held may have gone to another player meanwhile: MY GAMES shows yours.", st.Why, since)
	if kept > 0 {
		text = lang.M("Mail to you bounced (%s), so I stopped writing to you on %s. Now that you write again, I write to you again, and the seats I kept for you are yours as before: a mail for each game says what happened meanwhile. MY GAMES shows your games.", st.Why, since)
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Notice = &game.Notice{Kind: "reachable"}
	data.Notice.Tell(text)
	return d.say(j, templates.Notice, data)
}

// ---- the digest's news -----------------------------------------------------

// digestNews is one piece of a game's news kept for an address's digest
// (mail/digest/<address>\x00<seq>).
type digestNews struct {
	Game   string    `json:"game"`
	Seat   string    `json:"seat,omitempty"` // "" for an observer or the GM
	Time   time.Time `json:"time"`
	Kind   string    `json:"kind"` // report, or a notice kind
	Step   uint64    `json:"step,omitempty"`
	Turn   int       `json:"turn,omitempty"`
	Phase  string    `json:"phase,omitempty"`
	Events []string  `json:"events,omitempty"`
	Text   string    `json:"text,omitempty"`
	// The messages of Phase, Events and Text (lang.Msg), kept so that
	// the digest is written in its reader's language when it goes out.
	PhaseMsg  *lang.Msg   `json:"phase_msg,omitempty"`
	EventMsgs []*lang.Msg `json:"event_msgs,omitempty"`
	TextMsg   *lang.Msg   `json:"text_msg,omitempty"`
}

func holdNews(tx store.Tx, addr string, n *digestNews) error {
	b, err := mailBucket(tx, store.BucketMailDigest)
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	key := append(append([]byte(settings.Address(addr)), 0), store.Key(seq)...)
	return b.Put(key, data)
}
