package daemon

import (
	"sync"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/pbem/outbox"
)

// viewKey names the view a report's picture shows: outbox.Picture without
// its file's names.
type viewKey struct {
	game         string
	epoch        int
	step         uint64
	player, lang string
}

func keyOf(p outbox.Picture) viewKey {
	return viewKey{p.Game, p.Epoch, p.Step, p.Player, p.Lang}
}

// views keeps the views of the reports this process queued, for the
// outbox to draw their pictures from without reading the step's state
// from the store again (Daemon.Picture): on PostgreSQL reading it again was
// two transactions of their own for every picture. A view is the step's,
// which never changes, so keeping it is safe. A view leaves when its
// picture is drawn (take), so what is kept is the reports queued and not
// yet sent: a few, or in a backlog thousands, for the outbox runs far
// behind the orders then (with 1,024 kept for good and the oldest pushed
// out, 8,622 of a 10-game drain's 10,024 pictures read their step again).
// An observers' view is drawn for each observer and stays until pushed
// out. A report queued by another process, sent again, or pushed out by
// newer ones is read from the store as before.
type views struct {
	mu   sync.Mutex
	byID map[viewKey]keptView
	ring []ringSlot // in the order put, the next to go at next
	next int
	seq  uint64
	// found and missed count the views asked for (take).
	found, missed int64
}

type keptView struct {
	v   engine.View
	seq uint64 // which put, so that a slot of the ring takes out only its own
}

type ringSlot struct {
	k   viewKey
	seq uint64
}

// viewsKept bounds the views a mailer keeps (a batch of 50 order mails in
// five-seat games queues 250 reports). A view holds its step's decoded
// state, shared by the step's readers: 16 KB for a six-player Burning
// Planets at turn 90, so at most about 64 MB, while a backlog's reports
// wait for the outbox, and little once they are sent.
const viewsKept = 4096

func newViews(n int) *views {
	return &views{byID: make(map[viewKey]keptView), ring: make([]ringSlot, 0, n)}
}

// put keeps v under k (nil-safe: a Mailer made without NewMailer keeps none).
func (c *views) put(k viewKey, v engine.View) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	slot := ringSlot{k, c.seq}
	if len(c.ring) < cap(c.ring) {
		c.ring = append(c.ring, slot)
	} else {
		if old := c.ring[c.next]; c.byID[old.k].seq == old.seq {
			delete(c.byID, old.k)
		}
		c.ring[c.next] = slot
		c.next = (c.next + 1) % len(c.ring)
	}
	c.byID[k] = keptView{v, c.seq}
}

// take is the view kept under k, if any, which then leaves (but an
// observers' view, drawn once for each observer).
func (c *views) take(k viewKey) (engine.View, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kv, ok := c.byID[k]
	if !ok {
		c.missed++
		return nil, false
	}
	c.found++
	if k.player != game.Observer {
		delete(c.byID, k)
	}
	return kv.v, true
}

// counts are how many views asked for were kept, and how many not.
func (c *views) counts() (found, missed int64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.found, c.missed
}
