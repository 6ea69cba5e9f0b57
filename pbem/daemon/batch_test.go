package daemon_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// txWatch records the transaction of every game change, to tell how many
// transactions a batch took.
type txWatch struct {
	txs  []store.Tx
	seen map[store.Tx]bool
	// delay makes each change take at least this long.
	delay time.Duration
}

func (w *txWatch) hook(tx store.Tx, _ *game.Change) error {
	time.Sleep(w.delay)
	if !w.seen[tx] {
		w.seen[tx] = true
		w.txs = append(w.txs, tx)
	}
	return nil
}

// newBatchHarness is newHarness with w watching the game changes' hooks.
func newBatchHarness(t *testing.T, w *txWatch) *harness {
	t.Helper()
	// One group per batch however slow the machine (-race, load): the
	// tests count the transactions.
	return newGroupHarness(t, w, time.Hour)
}

// newGroupHarness is newBatchHarness with the daemon's Config.GroupTime
// (0: its default).
func newGroupHarness(t *testing.T, w *txWatch, groupTime time.Duration) *harness {
	t.Helper()
	w.seen = map[store.Tx]bool{}
	h := rig{config: daemon.Config{GroupTime: groupTime}, opts: []game.Option{game.WithHooks(w.hook)}, game: g1("100")}.start(t)
	h.flush() // the welcome mails
	w.txs, w.seen = nil, map[store.Tx]bool{}
	return h
}

func (h *harness) batch(ms ...imapin.Message) []imapin.Outcome {
	h.t.Helper()
	out := h.d.HandleBatch(context.Background(), ms)
	if len(out) != len(ms) {
		h.t.Fatalf("%d outcomes for %d mails", len(out), len(ms))
	}
	for i, o := range out {
		if o.Err != nil {
			h.t.Fatalf("mail %d: %v", i, o.Err)
		}
	}
	return out
}

// A batch commits in one transaction, and each mail in it sees what the
// ones before it did: ann's and bob's orders resolve the turn, a mail
// given twice is applied once, and everyone is answered.
func TestBatchIsOneTransaction(t *testing.T) {
	w := &txWatch{}
	h := newBatchHarness(t, w)
	ann := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2")
	bob := h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "PUSH 3")
	again := bob
	again.UID = 99
	h.batch(ann, bob, again, h.mail("eve@example.org", "hello", "LIST"))
	if len(w.txs) != 1 {
		t.Errorf("the batch's changes took %d transactions, want 1", len(w.txs))
	}
	g, err := h.d.Service().Get(context.Background(), "g1")
	if err != nil || g.Step != 1 {
		t.Fatalf("g1 after the batch: step %d, %v; want the turn resolved", g.Step, err)
	}
	if n := h.refs(messageID(bob)); n != 1 {
		t.Errorf("bob's mail is in the log %d times", n)
	}
	sent := h.flush()
	for _, who := range []string{"ann@example.org", "bob@example.org"} {
		if m := to(sent, who); len(m) != 2 { // the ack and the report
			t.Errorf("%s got %d mails, want the ack and the turn's report", who, len(m))
		}
	}
	if m := to(sent, "eve@example.org"); len(m) != 1 || !strings.Contains(m[0], "OPEN TO JOIN") {
		t.Errorf("the stranger's LIST: %q", m)
	}
}

// A mail whose change fails spoils its batch's transaction: the batch is
// done again, the mails before it as a group, the failing one alone, the
// rest as a group. Every mail is answered once, and applied once.
func TestBatchRedoneAroundAFailure(t *testing.T) {
	w := &txWatch{}
	h := newBatchHarness(t, w)
	ctx := context.Background()
	if _, _, err := h.d.Service().Kick(ctx, "g1", "bob"); err != nil {
		t.Fatal(err)
	}
	w.txs, w.seen = nil, map[store.Tx]bool{}
	ann := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2")
	// Press to a seat that does not exist: refused inside the change's
	// transaction (checks made before it, like JOIN's, spoil nothing).
	press := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] press", "PRESS TO zed\nhello\nEND")
	ann2 := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] motto", "MOTTO onward")
	out := h.batch(ann, press, ann2)
	// ann's change in the spoiled group, again in the group of the mails
	// before the refused press, then ann2's in the group after it.
	if len(w.txs) != 3 {
		t.Errorf("the batch's changes ran in %d transactions, want 3", len(w.txs))
	}
	if out[1].Disposition != imapin.Rejected && out[1].Disposition != imapin.Processed {
		t.Errorf("the refused press's disposition: %v", out[1].Disposition)
	}
	for _, m := range []imapin.Message{ann, press, ann2} {
		if ok, err := h.d.Seen(ctx, messageID(m)); err != nil || !ok {
			t.Errorf("mail %s not recorded as seen: %v", messageID(m), err)
		}
	}
	if n := h.refs(messageID(ann)); n != 1 {
		t.Errorf("ann's orders are in the log %d times, want 1", n)
	}
	sent := h.flush()
	var refused int
	for _, m := range to(sent, "ann@example.org") {
		if strings.Contains(m, "no player") {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("the press to nobody was refused in %d answers, want 1: %q", refused, to(sent, "ann@example.org"))
	}
	if m := to(sent, "ann@example.org"); len(m) < 3 {
		t.Errorf("ann got %d mails for her three", len(m))
	}
}

// The running daemon compacts sent-mail records older than the retention:
// here, with its clock 100 days ahead, the welcome mails' records shrink
// to what game log shows, which still lists them.
func TestRunCompactsOldRecords(t *testing.T) {
	later := time.Now().Add(100 * 24 * time.Hour)
	h := newHarness(t, func(c *daemon.Config) { c.Now = func() time.Time { return later } })
	h.flush()
	if c, _ := outbox.Count(h.st); c.Sent != 2 {
		t.Fatalf("%d welcome mails recorded as sent, want 2", c.Sent)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := imapin.New(imapin.Config{Addr: h.srv.IMAPAddr, TLS: "none", Credentials: func(context.Context) (string, string, error) { return botAddr, "pw", nil }})
	done := h.run(ctx, r)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, _ := outbox.Count(h.st); c.Sent == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sent records were not compacted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	var evs []outbox.Event
	h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		evs, err = outbox.OfGame(tx, "g1")
		return err
	})
	if len(evs) != 2 || evs[0].State != "sent" || evs[0].Kind != "welcome" {
		t.Errorf("g1's mails after compaction: %+v", evs)
	}
}

// lockWatch is a resolver that counts the look-ups made inside a batch's
// transaction (their context carries the store's group): such a look-up
// would hold the database's writer lock, for which the outbox and the tick
// wait, for as long as DNS takes. It asks the store, not a clock, so a
// loaded machine's slow commit is not taken for a held lock.
type lockWatch struct {
	st      *store.Store
	res     pbemtest.DNS
	lookups int
	blocked int
}

func (w *lockWatch) LookupTXT(ctx context.Context, name string) ([]string, error) {
	w.lookups++
	if w.st.InGroup(ctx) {
		w.blocked++
	}
	return w.res.LookupTXT(ctx, name)
}

// dmarcHarness is a harness whose daemon authenticates senders by DMARC,
// asking w, which counts the look-ups.
func dmarcHarness(t *testing.T) (*harness, *lockWatch) {
	w := &lockWatch{res: pbemtest.DNS{"_dmarc.example.org": "v=DMARC1; p=none"}}
	h := newHarness(t, byDMARC(w))
	w.st = h.st
	h.flush()
	return h, w
}

// A batch's senders are authenticated (DNS) before its transaction opens.
func TestBatchAsksDNSOutsideItsTransaction(t *testing.T) {
	h, w := dmarcHarness(t)
	h.batch(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2"),
		h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "PUSH 1"))
	if w.lookups == 0 {
		t.Fatal("no DNS look-up was made: the test checks nothing")
	}
	if w.blocked > 0 {
		t.Errorf("%d of %d DNS look-ups ran while the batch's transaction held the database", w.blocked, w.lookups)
	}
	if g, _ := h.d.Service().Get(context.Background(), "g1"); g.Step != 1 {
		t.Errorf("the batch's orders did not resolve the turn: step %d", g.Step)
	}
}

// A mail handled before and fetched again (its filing failed) is not
// authenticated again when a batch brings it with new mail: the batch's
// seen-records are read, together, before the senders are checked.
func TestBatchAsksDNSOnlyForMailNotSeen(t *testing.T) {
	h, w := dmarcHarness(t)
	ann := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2")
	h.batch(ann)
	one := w.lookups
	if one == 0 {
		t.Fatal("no DNS look-up was made: the test checks nothing")
	}
	h.batch(ann, h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "PUSH 1"))
	if got := w.lookups - one; got != one {
		t.Errorf("a batch of a mail seen before and a new one made %d DNS look-ups, want %d: the new mail's only", got, one)
	}
	if g, _ := h.d.Service().Get(context.Background(), "g1"); g.Step != 1 {
		t.Errorf("the orders did not resolve the turn: step %d", g.Step)
	}
}

// A mail whose handling was cut short after one of its parts committed
// (handleAlone records them one by one; a crash can stop it between two)
// comes again in a batch with a mail that has none: the batch reads
// whether any has parts once, at the start of its transaction
// (readAhead), and that must be known mail by mail. ann's recorded part
// is not applied again and its recorded answer is sent; bob's orders,
// with no parts, are applied; no part records are left.
func TestBatchHonoursThePartsOfAHandlingCutShort(t *testing.T) {
	h := newBatchHarness(t, &txWatch{})
	ctx := context.Background()
	bob := h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "PUSH 1")
	ann := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2")
	if err := daemon.RecordPart(ctx, h.st, messageID(ann), 0, "THE ANSWER RECORDED BEFORE THE CRASH"); err != nil {
		t.Fatal(err)
	}
	h.batch(bob, ann)
	if n := h.refs(messageID(ann)); n != 0 {
		t.Errorf("ann's orders, recorded as done before the crash, are in the log %d times, want 0", n)
	}
	if n := h.refs(messageID(bob)); n != 1 {
		t.Errorf("bob's orders are in the log %d times, want 1", n)
	}
	if n, err := daemon.PartsLeft(ctx, h.st); err != nil || n != 0 {
		t.Errorf("%d part records left after the batch (%v), want 0", n, err)
	}
	var recorded int
	for _, m := range to(h.flush(), "ann@example.org") {
		if strings.Contains(m, "THE ANSWER RECORDED BEFORE THE CRASH") {
			recorded++
		}
	}
	if recorded != 1 {
		t.Errorf("ann's recorded answer was sent %d times, want 1", recorded)
	}
	// Handled again (a second fetch before the mail was filed): filed only.
	h.batch(ann)
	if n := h.refs(messageID(ann)); n != 0 {
		t.Errorf("after a second look, ann's orders are in the log %d times, want 0", n)
	}
}

// A batch's transaction commits after DefaultGroupTime of work on bbolt,
// whose writer lock the outbox and the tick wait for, and holds up to
// DefaultSharedGroupTime on PostgreSQL, which has none, where a short
// bound only multiplies the batch's own round trips: three changes of
// 70 ms each take two transactions on bbolt (three on a machine so slow
// that one change passes 100 ms: the bound still held) and one on
// PostgreSQL.
func TestBatchTransactionBoundedByTheStoresLock(t *testing.T) {
	w := &txWatch{}
	h := newGroupHarness(t, w, 0)
	w.txs, w.seen, w.delay = nil, map[store.Tx]bool{}, 70*time.Millisecond
	h.batch(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2"),
		h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "PUSH 3"),
		h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] motto", "MOTTO onward"))
	if h.st.Locks() {
		if len(w.txs) < 2 {
			t.Errorf("three changes of 70 ms took %d transaction on a store with a writer lock, want 2 (the batch held the lock past DefaultGroupTime)", len(w.txs))
		}
	} else if len(w.txs) != 1 {
		t.Errorf("three changes of 70 ms took %d transactions on a store with no writer lock, want 1", len(w.txs))
	}
}
