package daemon

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/command"
	"orrery/pbem/policy"
	"orrery/pbem/route"
	"orrery/templates"
)

// # Consent
//
// OBSERVE and JOIN by mail put an address on a game's mailing list: every
// step then mails it. Nobody's address goes there without its consent, so
// neither command acts at once. The answer goes to the address and asks
// it to confirm, with a code; a reply that says CONFIRM (or a mail with
// CONFIRM and the code), from that very address, does what was asked. A
// forged From gets its victim one mail, and nothing more unless they
// answer it. A person is an address with any +tag taken off
// (policy.Person): ann+1@ and ann+2@ observe once and hold one seat
// between them, and one request of a person for a game is pending at a
// time (the latest). A game takes at most Config.MaxObservers observers
// by mail. Requests lapse after consentLife. To a stranger, the answer
// asking to confirm a JOIN may draw on the part of the strangers' daily
// budget kept for JOIN (budget.go): a flood of OBSERVEs cannot leave a
// newcomer's JOIN unanswered.
//
// An invitation is a consent asked for ahead: INVITE mails the address,
// and a JOIN of that game in a reply to the invitation (its In-Reply-To
// or References names the invitation's own Message-ID, never the game's
// root id, which every mail of the game carries), from the invited
// address, is confirmed at once (invitedJoin), for invitationLife. A JOIN
// from another address, or not in reply to it, or later, asks to confirm
// as any JOIN does. This holds under every sender_auth, also off: the
// proof is the same a plain reply CONFIRM to our mail asking to confirm
// gives today, a Message-ID with 96 random bits that went to that address
// only, so a forger who does not read the address's mail cannot seat it,
// and one who does could confirm any request of it anyway. A code of the
// invitation's own in its subject tag or body would prove no more (it goes
// to the same mailbox, and a reply quotes it to whomever it goes to), and
// would have to be kept apart from the seat's secret that a subject tag
// carries. The invitation stays valid once used, so that a retry of the
// mail that used it finds the part it recorded (a second JOIN is refused
// as any JOIN of a seated person is).

// consentLife is how long a request waits for its confirmation.
const consentLife = 3 * 24 * time.Hour

// consentRecord is a JOIN or an OBSERVE waiting for its confirmation, kept
// under its token; "p\x00<person>\x00<game>" names the token of a person's
// pending request for a game, "m\x00<Message-ID>" the tokens asked for in
// one answer (a plain reply CONFIRM to it).
type consentRecord struct {
	Token  string    `json:"token"`
	Kind   string    `json:"kind"` // observe, join
	Game   string    `json:"game"`
	Seat   string    `json:"seat,omitempty"`
	Addr   string    `json:"addr"`   // the address asked, canonical
	Person string    `json:"person"` // policy.Person of Addr
	At     time.Time `json:"at"`
	// Invited marks an invitation, kept under "i\x00<Message-ID>" of the
	// mail that carried it (its Token): a JOIN in reply to it is
	// confirmed at once (invitedJoin).
	Invited bool `json:"invited,omitempty"`
}

// invitationLife is how long a reply to an invitation joins without a
// confirmation; later, its JOIN asks for one as anyone's does.
const invitationLife = 14 * 24 * time.Hour

// invitationKey is the key of the invitation mailed as Message-ID id.
func invitationKey(id string) []byte { return []byte("i\x00" + strings.ToLower(id)) }

// keepInvitation notes, in the transaction that queues it, that the
// invitation to gameID went to addr in the mail with Message-ID id.
func keepInvitation(tx store.Tx, gameID, addr, id string, at time.Time) error {
	b, err := mailBucket(tx, BucketConsent)
	if err != nil {
		return err
	}
	key := invitationKey(id)
	data, _ := json.Marshal(consentRecord{Token: string(key), Kind: "join", Game: gameID, Addr: addr, At: at.UTC(), Invited: true})
	return b.Put(key, data)
}

// invitedJoin returns the invitation JOIN c answers, as a request the
// sender confirms by it (nil when it answers none): c must reply to the
// invitation, be for its game, come from the invited address, and be in
// time.
func (d *Daemon) invitedJoin(ctx context.Context, j *job, c route.Command) (*consentRecord, error) {
	if c.Name != route.Join || j.m == nil {
		return nil, nil
	}
	var found *consentRecord
	err := d.st.View(ctx, func(tx store.Tx) error {
		b := mailBucketRO(tx, BucketConsent)
		if b == nil {
			return nil
		}
		for _, id := range append(append([]string(nil), j.m.InReplyTo...), j.m.References...) {
			v := b.Get(invitationKey(id))
			if v == nil {
				continue
			}
			var rec consentRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			if rec.Invited && rec.Game == c.Game && sameAddress(rec.Addr, j.from) && d.cfg.Now().Sub(rec.At) <= invitationLife {
				rec.Addr, rec.Person, rec.Seat = j.from, d.person(j.from), c.Seat
				found = &rec
				return nil
			}
		}
		return nil
	})
	return found, err
}

// joinInvited does JOIN c, which answers invitation rec, as a confirmed
// JOIN: the sender takes the seat now, and is answered as a player.
func (d *Daemon) joinInvited(ctx context.Context, j *job, r *route.Result, c route.Command, rec consentRecord, byID *gameIndex) error {
	j.consenting = &rec
	j.join = true
	before := j.applied
	err := d.change(ctx, j, r, c, byID)
	j.consenting = nil
	if err == nil && j.applied > before {
		j.isPlayer = true // as confirmConsents
	}
	return err
}

// newToken is a confirmation code: 16 letters and digits, 80 bits.
func newToken() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [16]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b[:])
}

// person is the person behind addr for OBSERVE, JOIN and strangers'
// budgets.
func (d *Daemon) person(addr string) string { return policy.Person(addr, d.cfg.PlusDistinct) }

// askConsent answers an OBSERVE or a JOIN of g with a request to confirm
// it, after the checks that do not need the confirmation; finish keeps
// the request when the answer goes out.
func (d *Daemon) askConsent(j *job, c route.Command, g *game.Game) error {
	person := d.person(j.from)
	if msg, fix := d.consentable(c.Name, g, person); !msg.IsZero() {
		return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, string(c.Name)+" "+g.ID, msg, fix))
	}
	rec := consentRecord{Token: newToken(), Kind: strings.ToLower(string(c.Name)), Game: g.ID, Seat: c.Seat,
		Addr: j.from, Person: person, At: d.cfg.Now().UTC()}
	j.consents = append(j.consents, rec)
	j.join = j.join || c.Name == route.Join
	if j.replyID == "" {
		j.replyID = d.mailer.NewMessageID()
	}
	data := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
	data.Consent = &templates.Consent{Kind: rec.Kind, Seat: rec.Seat, Token: rec.Token, Address: rec.Addr,
		Days: int(consentLife / (24 * time.Hour))}
	d.log.Info("asked to confirm", "kind", rec.Kind, "game", g.ID, "to", j.from)
	return d.say(j, templates.AskConsent, data)
}

// consentable says why person may not observe or join g now, and what to
// do instead ("" if they may); it is asked both when the request comes
// and when it is confirmed. What each command asks is its changer's
// consentable (run.go).
func (d *Daemon) consentable(kind route.Name, g *game.Game, person string) (msg, fix lang.Msg) {
	if ch, ok := changers[command.Lookup(kind)]; ok && ch.consentable != nil {
		return ch.consentable(d, g, person)
	}
	return lang.Msg{}, lang.Msg{}
}

// observable is OBSERVE's consentable: not in a game that takes observers
// only through its GM, not twice, and not past the game's limit.
func observable(d *Daemon, g *game.Game, person string) (msg, fix lang.Msg) {
	if g.Settings.Observers == "gm" {
		return lang.M("game %s takes observers only through its GM", g.ID), lang.M("ask the GM to add you")
	}
	for _, o := range g.Observers {
		if d.person(o) == person {
			return lang.M("you observe game %s already, as %s", g.ID, o), lang.M("send UNOBSERVE %s from that address to stop", g.ID)
		}
	}
	if len(g.Observers) >= d.cfg.MaxObservers {
		msg := lang.MN("game %s takes at most %d observer by mail, and has one",
			"game %s takes at most %d observers by mail, and has them", g.ID, d.cfg.MaxObservers)
		return msg, lang.M("ask the GM to add you")
	}
	return lang.Msg{}, lang.Msg{}
}

// joinable is JOIN's consentable: a seat must be open, and one a person.
func joinable(d *Daemon, g *game.Game, person string) (msg, fix lang.Msg) {
	if !g.Signup && len(g.OpenSeats()) == 0 {
		// A game under way takes JOIN only for a seat its player
		// left, when the game offers it (--abandoned open).
		return lang.M("game %s has started and has no seat open to take (a seat is open when its player dropped out and the game offers it: JOIN takes it then)", g.ID),
			lang.M("send LIST for the games you can join")
	}
	for _, p := range g.Players {
		if p.Email != "" && d.person(p.Email) == person {
			return lang.M("you play %s in game %s already, as %s", p.Name, g.ID, p.Email), lang.M("one seat a person")
		}
	}
	return lang.Msg{}, lang.Msg{}
}

// keepConsents stores j's requests in the transaction that sends the
// answer asking for them: a request whose answer was not sent (a budget
// spent) cannot be confirmed, and is not kept. A person's earlier request
// for the same game lapses.
func keepConsents(tx store.Tx, j *job) error {
	if len(j.consents) == 0 {
		return nil
	}
	b, err := mailBucket(tx, BucketConsent)
	if err != nil {
		return err
	}
	var tokens []string
	for _, rec := range j.consents {
		pk := []byte("p\x00" + string(addrKey(rec.Person)) + "\x00" + rec.Game)
		if old := b.Get(pk); old != nil {
			if err := b.Delete(old); err != nil {
				return err
			}
		}
		data, _ := json.Marshal(rec)
		if err := b.Put([]byte(rec.Token), data); err != nil {
			return err
		}
		if err := b.Put(pk, []byte(rec.Token)); err != nil {
			return err
		}
		tokens = append(tokens, rec.Token)
	}
	data, _ := json.Marshal(tokens)
	return b.Put([]byte("m\x00"+strings.ToLower(j.replyID)), data)
}

// dropConsent forgets a confirmed request.
func dropConsent(tx store.Tx, rec consentRecord) error {
	b, err := mailBucket(tx, BucketConsent)
	if err != nil {
		return err
	}
	pk := []byte("p\x00" + string(addrKey(rec.Person)) + "\x00" + rec.Game)
	if v := b.Get(pk); string(v) == rec.Token {
		if err := b.Delete(pk); err != nil {
			return err
		}
	}
	return b.Delete([]byte(rec.Token))
}

// findConsents returns the requests j's CONFIRM answers: the one its code
// names, else those asked for in the mail it replies to. ok is false when
// it answers none (it may confirm held orders instead).
func (d *Daemon) findConsents(ctx context.Context, j *job, c route.Command) (recs []consentRecord, ok bool, err error) {
	err = d.st.View(ctx, func(tx store.Tx) error {
		b := mailBucketRO(tx, BucketConsent)
		var tokens []string
		if c.Token != "" {
			tokens, ok = []string{c.Token}, true
		} else if b != nil {
			for _, id := range append(append([]string(nil), j.m.InReplyTo...), j.m.References...) {
				if v := b.Get([]byte("m\x00" + strings.ToLower(id))); v != nil {
					ok = true
					if err := json.Unmarshal(v, &tokens); err != nil {
						return err
					}
					break
				}
			}
		}
		for _, t := range tokens {
			if b == nil {
				break
			}
			if v := b.Get([]byte(t)); v != nil {
				var rec consentRecord
				if err := json.Unmarshal(v, &rec); err != nil {
					return err
				}
				recs = append(recs, rec)
			}
		}
		return nil
	})
	return recs, ok, err
}

// confirmConsents does what the requests j confirms asked for, each as a
// part of the mail, or says why not.
func (d *Daemon) confirmConsents(ctx context.Context, j *job, r *route.Result, c route.Command, recs []consentRecord, byID *gameIndex) error {
	bad := func(msg, fix lang.Msg) error {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "CONFIRM", msg, fix))
	}
	if len(recs) == 0 {
		// Confirmed by an earlier try of this very mail?
		if done, err := d.partOf(ctx, j, j.parts); err != nil || done != nil {
			j.parts++
			if done != nil {
				if done.Text != "" {
					j.answers = append(j.answers, *done)
				}
				j.applied++
			}
			return err
		}
		return bad(lang.M("there is no request of yours waiting for this confirmation (it was done, it lapsed, or a later request replaced it)"),
			lang.M("send your JOIN or OBSERVE again, then confirm the mail I send back"))
	}
	for _, rec := range recs {
		if rec.Addr != j.from {
			if err := bad(lang.M("this request was asked of another address, and only that address can confirm it"),
				lang.M("confirm from the address my mail went to")); err != nil {
				return err
			}
			continue
		}
		if d.cfg.Now().Sub(rec.At) > consentLife {
			if err := bad(lang.M("your request to %s %s lapsed unconfirmed", rec.Kind, rec.Game),
				lang.M("send %s %s again", strings.ToUpper(rec.Kind), rec.Game)); err != nil {
				return err
			}
			continue
		}
		rec := rec
		j.consenting = &rec
		j.join = j.join || rec.Kind == "join"
		before := j.applied
		err := d.change(ctx, j, r, route.Command{Name: route.Name(strings.ToUpper(rec.Kind)), Line: c.Line, Game: rec.Game, Seat: rec.Seat}, byID)
		j.consenting = nil
		if err != nil {
			return err
		}
		if rec.Kind == "join" && j.applied > before {
			// The seat is theirs: the answer is a player's, outside
			// the strangers' budgets (their JOIN's request drew on
			// them already).
			j.isPlayer = true
		}
	}
	return nil
}
