package daemon

import (
	"sync"

	"orrery/engine"
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

// views keeps the views of the reports this process queued last, for the
// outbox to draw their pictures from without reading the step's state
// from the store again (Daemon.Picture): a report is sent seconds after it
// is queued, and on PostgreSQL reading it again was a transaction of its
// own for every picture. A view is the step's, which never changes, so
// keeping it is safe; a report queued by another process, or pushed out by
// newer ones, is read from the store as before. Its size is bounded: the
// oldest go first.
type views struct {
	mu   sync.Mutex
	byID map[viewKey]engine.View
	ring []viewKey // in the order put, the next to go at next
	next int
	// found and missed count the views asked for (get).
	found, missed int64
}

// viewsKept is how many views a mailer keeps: several batches' reports
// (a batch of 50 order mails in five-seat games makes 250). A view holds
// its step's decoded state, shared by the step's readers: 16 KB for a
// six-player Burning Planets at turn 90, so at most about 16 MB.
const viewsKept = 1024

func newViews(n int) *views {
	return &views{byID: make(map[viewKey]engine.View, n), ring: make([]viewKey, 0, n)}
}

// put keeps v under k (nil-safe: a Mailer made without NewMailer keeps none).
func (c *views) put(k viewKey, v engine.View) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[k]; ok {
		c.byID[k] = v
		return
	}
	if len(c.ring) < cap(c.ring) {
		c.ring = append(c.ring, k)
	} else {
		delete(c.byID, c.ring[c.next])
		c.ring[c.next] = k
		c.next = (c.next + 1) % len(c.ring)
	}
	c.byID[k] = v
}

// get is the view kept under k, if any.
func (c *views) get(k viewKey) (engine.View, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.byID[k]
	if ok {
		c.found++
	} else {
		c.missed++
	}
	return v, ok
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
