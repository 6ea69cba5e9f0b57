package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/templates"
)

// The daily digest (SET DIGEST on): instead of a report each step and the
// game's news as it happens, an address gets one mail a day with all of
// it, at DigestHour in its own time zone. The mailer keeps each piece of
// news in mail/digest in the transaction of the change that made it
// (post), and the digest takes them out in the transaction that queues
// it, so every piece goes out once, in one digest, whatever crashes.

// digestHour is when digests go out, in each reader's zone.
const digestHour = 7

// digestDue is when the digest holding news kept at first is due: the
// next digestHour in zone after it.
func digestDue(first time.Time, zone *time.Location) time.Time {
	l := first.In(zone)
	due := time.Date(l.Year(), l.Month(), l.Day(), digestHour, 0, 0, 0, zone)
	if !due.After(l) {
		due = due.AddDate(0, 0, 1)
	}
	return due
}

type heldNews struct {
	key  []byte
	news digestNews
}

// sendDigests sends every digest that is due.
func (d *Daemon) sendDigests(ctx context.Context) error {
	now := d.cfg.Now()
	due := map[string][]heldNews{}
	var order []string
	err := d.st.View(ctx, func(tx store.Tx) error {
		m := tx.Bucket(store.BucketMail)
		if m == nil || m.Bucket(store.BucketMailDigest) == nil {
			return nil
		}
		all := map[string][]heldNews{}
		err := m.Bucket(store.BucketMailDigest).ForEach(func(k, v []byte) error {
			i := bytes.IndexByte(k, 0)
			if i < 0 {
				return nil
			}
			var n digestNews
			if err := json.Unmarshal(v, &n); err != nil {
				return err
			}
			addr := string(k[:i])
			if _, seen := all[addr]; !seen {
				order = append(order, addr)
			}
			all[addr] = append(all[addr], heldNews{key: append([]byte(nil), k...), news: n})
			return nil
		})
		if err != nil {
			return err
		}
		for addr, ns := range all {
			if !now.Before(digestDue(ns[0].news.Time, readerOf(tx, addr).zone)) {
				due[addr] = ns
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, addr := range order {
		if ns := due[addr]; len(ns) > 0 {
			if err := d.sendDigest(ctx, addr, ns); err != nil {
				return err
			}
		}
	}
	return nil
}

// sendDigest builds addr's digest from its news and where each game stands
// now (its seat's current report, read before the writing transaction),
// then queues it and drops the news it holds, together.
func (d *Daemon) sendDigest(ctx context.Context, addr string, ns []heldNews) error {
	data := d.mailer.data(nil, game.Player{}, nil)
	byGame := map[string]int{}
	for _, h := range ns {
		n := h.news
		i, ok := byGame[n.Game]
		if !ok {
			dg := templates.DigestGame{ID: n.Game}
			if g, err := d.svc.Get(ctx, n.Game); err == nil {
				if rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset); err == nil {
					dg.Title, dg.Ruleset = rs.Info().Title, rs
				}
				if p, ok := g.PlayerByEmail(addr); ok && !g.Signup {
					dg.Seat = p.Name
					if rep, err := d.svc.Report(ctx, g.ID, p.Name); err == nil {
						dg.Report = rep
					}
				}
			}
			i = len(data.Digest)
			byGame[n.Game] = i
			data.Digest = append(data.Digest, dg)
		}
		data.Digest[i].News = append(data.Digest[i].News, templates.DigestNews{Time: n.Time, Kind: n.Kind, Step: n.Step,
			Turn: n.Turn, Phase: n.Phase, Events: n.Events, Text: n.Text, PhaseMsg: n.PhaseMsg, EventMsgs: n.EventMsgs, TextMsg: n.TextMsg})
	}
	sort.SliceStable(data.Digest, func(a, b int) bool { return data.Digest[a].ID < data.Digest[b].ID })
	return d.st.Update(ctx, func(tx store.Tx) error {
		b, err := mailBucket(tx, store.BucketMailDigest)
		if err != nil {
			return err
		}
		for _, h := range ns {
			if b.Get(h.key) == nil {
				return nil // sent meanwhile
			}
		}
		d.mailer.speak(data, readerOf(tx, addr), nil)
		c, err := d.mailer.Render.Render(templates.Digest, data)
		if err != nil {
			return err
		}
		out := outbox.Mail{To: []string{addr}, Subject: c.Subject, Text: c.Text, HTML: c.HTML, Auto: "auto-generated", Kind: "digest"}
		if err := d.mailer.enqueue(tx, out); err != nil {
			return err
		}
		for _, h := range ns {
			if err := b.Delete(h.key); err != nil {
				return err
			}
		}
		d.log.Info("digest sent", "to", addr, "news", len(ns), "games", len(data.Digest))
		return nil
	})
}
