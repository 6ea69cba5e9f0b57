//go:build soak

package soak

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
)

// seat is a player of a fleet game.
type seat struct{ name, email, secret string }

// fleet is many games of mixed rulesets in one DB, for one bot address.
type fleet struct {
	db, bot string
	games   []fleetGame
}

type fleetGame struct {
	id, ruleset string
	seats       []seat
}

var seatNames = []string{"ann", "bob", "cyd", "dan", "eve"}

// newFleet creates n games, cycling through games.All(), with 5 players
// each where the ruleset allows, else its maximum (or minimum).
func newFleet(t *testing.T, s stack, svc *game.Service, db, bot string, n int) *fleet {
	t.Helper()
	f := &fleet{db: db, bot: bot}
	all := games.All()
	tag := nonce()
	for i := range n {
		rs := all[i%len(all)]
		info := rs.Info()
		np := min(5, info.MaxPlayers)
		np = max(np, info.MinPlayers)
		fg := fleetGame{id: fmt.Sprintf("s%04d", i), ruleset: info.Name}
		var specs []game.PlayerSpec
		for k := range np {
			specs = append(specs, game.PlayerSpec{Name: seatNames[k%len(seatNames)], Email: fmt.Sprintf("%s-%d-%s@example.org", seatNames[k], i, tag)})
		}
		g, err := svc.Create(context.Background(), game.CreateRequest{ID: fg.id, Ruleset: info.Name, Players: specs, DiceSecret: "soak" + fg.id})
		if err != nil {
			t.Fatalf("create %s (%s): %v", fg.id, info.Name, err)
		}
		for _, p := range g.Players {
			fg.seats = append(fg.seats, seat{p.Name, p.Email, p.Secret})
		}
		f.games = append(f.games, fg)
	}
	return f
}

func (f *fleet) rulesetOf(id string) string {
	for _, g := range f.games {
		if g.id == id {
			return g.ruleset
		}
	}
	return "?"
}

// job is one order mail to send.
type job struct {
	prompt string
	game   string
	seat   seat
	orders string
}

// openJobs returns, for every game not over, one mail per player with an
// open blocking question: the ruleset's bot's orders for it.
func openJobs(ctx context.Context, svc *game.Service, f *fleet, rnd *rand.Rand) ([]job, error) {
	var jobs []job
	for _, fg := range f.games {
		g, err := svc.Get(ctx, fg.id)
		if err != nil {
			return nil, err
		}
		if g.Over() {
			continue
		}
		rs, err := engine.Find(svc.Rulesets(), g.Ruleset)
		if err != nil {
			return nil, err
		}
		x, err := svc.Export(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		st, err := rs.LoadState(x.State)
		if err != nil {
			return nil, err
		}
		for _, p := range fg.seats {
			for _, pr := range g.PromptsFor(p.name) {
				if pr.Kind.Blocks() && !slices.Contains(g.Answered, pr.ID) {
					jobs = append(jobs, job{prompt: pr.ID, game: g.ID, seat: p, orders: rs.Bot(st.View(p.name), pr, rnd)})
					break
				}
			}
		}
	}
	return jobs, nil
}

func (j job) mail(bot, id string) outbox.Mail {
	return outbox.Mail{MessageID: id, From: j.seat.email, To: []string{bot},
		Subject: fmt.Sprintf("Re: [%s %s] orders", j.game, j.seat.secret), Text: j.orders + "\n\n-- \n" + j.seat.name + "\n", Date: time.Now()}
}

// waitOutbox waits until the outbox of st has nothing queued.
func waitOutbox(st *store.Store, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if c, err := outbox.Count(st); err == nil && c.Queued == 0 {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	c, _ := outbox.Count(st)
	return fmt.Errorf("outbox still holds %d mails after %v", c.Queued, within)
}

// partLoad: N games, bots sending orders by SMTP at a steady rate, the
// daemon reading with IDLE; ack latency from the order mail accepted by
// Postfix to the ack accepted by Postfix.
func partLoad(t *testing.T, s stack, rep *report) {
	ctx := context.Background()
	n := nonce()
	bot := "orrery-load-" + n + "@" + s.Domain
	db := filepath.Join(t.TempDir(), "load.db")

	var mu sync.Mutex
	waiting := map[string]time.Time{} // player address → when its mail was accepted
	var lat []time.Duration
	var stray atomic.Int64
	onSent := func(r outbox.Record) {
		if r.Kind != "reply" || len(r.To) == 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		a := strings.ToLower(r.To[0])
		t0, ok := waiting[a]
		if !ok {
			stray.Add(1)
			return
		}
		delete(waiting, a)
		if !t0.IsZero() {
			lat = append(lat, time.Since(t0))
		}
	}
	st, d, r, err := s.newDaemon(db, bot, false, onSent)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Now()
	f := newFleet(t, s, d.Service(), db, bot, *flagGames)
	created := time.Since(t0)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx, r) }()
	defer func() { cancel(); <-done }()
	t0 = time.Now()
	if err := waitOutbox(st, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	welcome := time.Since(t0)
	seats := 0
	for _, g := range f.games {
		seats += len(g.seats)
	}
	rep.add("load", fmt.Sprintf("%d games created (%d seats, mixed rulesets)", len(f.games), seats), created.Round(time.Millisecond).String(), "", nil)
	rep.add("load", fmt.Sprintf("%d welcome mails sent through Postfix", seats), fmt.Sprintf("%v (%.0f/s)", welcome.Round(time.Millisecond), float64(seats)/welcome.Seconds()), "", nil)
	time.Sleep(500 * time.Millisecond) // the reader reaches IDLE

	sender := s.sender()
	rnd := rand.New(rand.NewPCG(8, 8))
	var sentIDs []string
	sentJobs := map[string]job{}
	interval := time.Duration(float64(time.Second) / *flagRate)
	loadStart := time.Now()
	for round := 1; round <= *flagRounds; round++ {
		jobs, err := openJobs(ctx, d.Service(), f, rnd)
		if err != nil {
			t.Fatal(err)
		}
		tick := time.NewTicker(interval)
		for i, j := range jobs {
			<-tick.C
			id := fmt.Sprintf("load-%d-%d-%s@players.example.org", round, i, n)
			mu.Lock()
			waiting[strings.ToLower(j.seat.email)] = time.Time{}
			mu.Unlock()
			if errs := sender.Send(ctx, []outbox.Mail{j.mail(bot, id)}); errs[0] != nil {
				t.Fatalf("send: %v", errs[0])
			}
			accepted := time.Now()
			mu.Lock()
			if _, ok := waiting[strings.ToLower(j.seat.email)]; ok {
				waiting[strings.ToLower(j.seat.email)] = accepted
			}
			mu.Unlock()
			sentIDs = append(sentIDs, id)
			sentJobs[id] = j
		}
		tick.Stop()
		deadline := time.Now().Add(5 * time.Minute)
		for {
			mu.Lock()
			left := len(waiting)
			mu.Unlock()
			if left == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("round %d: %d mails not acknowledged after 5 minutes", round, left)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("round %d: %d order mails", round, len(jobs))
	}
	loadTime := time.Since(loadStart)
	if err := waitOutbox(st, 5*time.Minute); err != nil {
		t.Error(err)
	}
	mu.Lock()
	lost := len(waiting)
	l := append([]time.Duration(nil), lat...)
	mu.Unlock()

	// Every order mail is in its game's log exactly once (accepted or
	// refused), and every game verifies.
	inLog := map[string]int{}
	rejected := 0
	verifyBad := 0
	for _, fg := range f.games {
		x, err := d.Service().Export(ctx, fg.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range x.Log {
			if e.Ref != "" && (e.Kind == "orders" || e.Kind == "rejected") {
				inLog[e.Ref]++
				if e.Kind == "rejected" {
					rejected++
					if rejected <= 3 {
						rep.note("load: a bot's orders were refused in %s (%s): %q: %v", fg.id, fg.ruleset, e.Text, e.Errors)
					}
				}
			}
		}
		if v, err := d.Service().Verify(ctx, fg.id); err != nil || !v.OK() {
			verifyBad++
			t.Errorf("verify %s: %v %v", fg.id, err, v)
		}
	}
	missing, doubled, empty := 0, 0, 0
	for _, id := range sentIDs {
		if strings.TrimSpace(sentJobs[id].orders) == "" && inLog[id] == 0 {
			// The bot had nothing to say: by mail that is a mail
			// without orders, answered with help, not a submission.
			if empty++; empty <= 3 {
				j := sentJobs[id]
				rep.note("load: the %s bot gave empty orders for %s's prompt %s in %s; the mail was answered but is no submission", f.rulesetOf(j.game), j.seat.name, j.prompt, j.game)
			}
			continue
		}
		switch inLog[id] {
		case 0:
			missing++
			if missing <= 3 {
				j := sentJobs[id]
				rep.note("load: order mail %s for %s (%s) is not in the game log; its orders were %q", id, j.game, j.seat.name, j.orders)
			}
		case 1:
		default:
			doubled++
		}
	}
	if missing+doubled > 0 {
		t.Errorf("%d order mails not in the log, %d in it twice", missing, doubled)
	}
	p50, p95, p99 := quantile(l, .50), quantile(l, .95), quantile(l, .99)
	rep.add("load", fmt.Sprintf("order mails (%d rounds at %.0f/s)", *flagRounds, *flagRate), fmt.Sprintf("%d in %v (%.1f/s acknowledged)", len(sentIDs), loadTime.Round(time.Second), float64(len(l))/loadTime.Seconds()), "", nil)
	rep.add("load", "ack latency p50 (IDLE)", ms(p50), "≤ 1 s", ptr(p50 <= time.Second))
	rep.add("load", "ack latency p95", ms(p95), "", nil)
	rep.add("load", "ack latency p99", ms(p99), "≤ 3 s", ptr(p99 <= 3*time.Second))
	rep.add("load", "ack latency max", ms(quantile(l, 1)), "", nil)
	rep.add("load", "order mails not acknowledged / not in the log / in it twice", fmt.Sprintf("%d / %d / %d", lost, missing, doubled), "0 lost, 0 doubled", ptr(lost+missing+doubled == 0))
	rep.add("load", "bots' mails with empty orders (answered with help)", fmt.Sprint(empty), "", nil)
	rep.add("load", "bots' orders refused by a ruleset (a bot bug)", fmt.Sprint(rejected), "", nil)
	rep.add("load", "games failing verify", fmt.Sprintf("%d of %d", verifyBad, len(f.games)), "0", ptr(verifyBad == 0))
	if k := stray.Load(); k > 0 {
		rep.note("load: %d replies went to players who had no mail waiting for an ack", k)
	}
}

// recorder passes mails on to the real sender and, while on, keeps a copy
// of each one the server accepted: the raw limit sends the same mails.
type recorder struct {
	next  outbox.Sender
	mu    sync.Mutex
	on    bool
	mails []outbox.Mail
	calls int // Send calls while on: batches handed to the sender
	// busy is the time spent in Send while on, first when the first
	// of those calls began.
	busy  time.Duration
	first time.Time
	ends  []sendEnd // each Send while on, when it returned
	// pictures are the board pictures drawn while on (keep), by what
	// each mail asked for (pictureKey): raw limit B attaches the very
	// same bytes.
	pictures map[string][]byte
}

// keep wraps a drawing func (outbox.SMTP.Pictures) so that the pictures
// it draws while the recorder is on are kept for picture.
func (r *recorder) keep(draw func(context.Context, outbox.Picture) ([]byte, error)) func(context.Context, outbox.Picture) ([]byte, error) {
	return func(ctx context.Context, p outbox.Picture) ([]byte, error) {
		png, err := draw(ctx, p)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err == nil && r.on {
			if r.pictures == nil {
				r.pictures = map[string][]byte{}
			}
			r.pictures[pictureKey(p)] = png
		}
		return png, err
	}
}

// picture is the picture kept for p, drawing nothing: raw limit B's
// outbox.SMTP.Pictures, which sends what the drain sent without the
// daemon's work of drawing it.
func (r *recorder) picture(_ context.Context, p outbox.Picture) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if png, ok := r.pictures[pictureKey(p)]; ok {
		return png, nil
	}
	return nil, fmt.Errorf("no picture of %s step %d for %s was drawn in the drain", p.Game, p.Step, p.Player)
}

// pictureKey names what p asks for, as a map key: a Picture is not
// comparable (its Notes are a slice).
func pictureKey(p outbox.Picture) string { return fmt.Sprintf("%#v", p) }

// sendEnd is one Send call: when it returned, and the mails it sent.
type sendEnd struct {
	at time.Time
	n  int
}

func (r *recorder) Send(ctx context.Context, mails []outbox.Mail) []error {
	t0 := time.Now()
	errs := r.next.Send(ctx, mails)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.calls++
		r.busy += time.Since(t0)
		n := 0
		for _, err := range errs {
			if err == nil {
				n++
			}
		}
		r.ends = append(r.ends, sendEnd{time.Now(), n})
		if r.first.IsZero() {
			r.first = t0
		}
	}
	for i, m := range mails {
		if r.on && errs[i] == nil {
			r.mails = append(r.mails, m)
		}
	}
	return errs
}

func (r *recorder) record(on bool) []outbox.Mail {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = on
	return r.mails
}

// partBacklog: order mails wait in the bot's inbox (delivered over LMTP
// while the daemon is down); the daemon starts and drains them. In the same
// run the servers' raw limit, twice: a bare go-imap client fetching as
// many mails and go-mail sending one short mail per mail (the yardstick
// issue 8 names), then the same client fetching them again and sending the
// very mails the daemon sent during the drain — acknowledgements and the
// turn reports they caused, to the same players — which is the same work
// for the servers.
func partBacklog(t *testing.T, s stack, rep *report) {
	n := nonce()
	bot := "orrery-backlog-" + n + "@" + s.Domain
	db := filepath.Join(t.TempDir(), "backlog.db")
	bl := openBacklog(t, s, db, bot, *flagBacklog, 1)
	defer bl.close()
	ng := min(*flagGames, 50)
	f := newFleet(t, s, bl.ds[0].d.Service(), db, bot, ng)
	bl.drain(t, s, f, func(figure, value, target string, met *bool) { rep.add("backlog", figure, value, target, met) })
}

// backlog is one daemon, or several sharing a PostgreSQL database and the
// mailbox, set up to drain m order mails, counting their replies and
// recording the mails they send.
type backlog struct {
	bot     string
	m       int
	ds      []*backlogDaemon
	rec     *recorder
	replies *atomic.Int64
	// counting is set when the drain starts: acknowledgements sent
	// before it (of mails an earlier part left queued in a database
	// TestScale reuses) are not the drain's.
	counting atomic.Bool
	all      chan struct{}
}

// backlogDaemon is one daemon of a backlog, with its own store (a
// connection pool on PostgreSQL), outbox, tick and IMAP reader, as a
// process of its own would have.
type backlogDaemon struct {
	st   *store.Store
	d    *daemon.Daemon
	r    *imapin.Reader
	sent atomic.Int64 // mails the server accepted from its outbox
}

// countSender counts the mails the server accepted through one daemon's
// outbox.
type countSender struct {
	next outbox.Sender
	n    *atomic.Int64
}

func (c countSender) Send(ctx context.Context, mails []outbox.Mail) []error {
	errs := c.next.Send(ctx, mails)
	for _, err := range errs {
		if err == nil {
			c.n.Add(1)
		}
	}
	return errs
}

// openBacklog opens daemons daemons on db for bot (more than one only on
// PostgreSQL, where they share the work as orrery serve's processes do:
// one reads the mailbox, all send the outbox and tick).
func openBacklog(t *testing.T, s stack, db, bot string, m, daemons int) *backlog {
	t.Helper()
	bl := &backlog{bot: bot, m: m, rec: &recorder{next: s.sender()}, replies: &atomic.Int64{}, all: make(chan struct{})}
	for range daemons {
		x := &backlogDaemon{}
		var err error
		x.st, x.d, x.r, err = s.newDaemonVia(db, bot, false, countSender{bl.rec, &x.sent}, func(r outbox.Record) {
			if r.Kind == "reply" && bl.counting.Load() && bl.replies.Add(1) == int64(m) {
				close(bl.all)
			}
		})
		if err != nil {
			bl.close()
			t.Fatal(err)
		}
		bl.ds = append(bl.ds, x)
	}
	return bl
}

func (bl *backlog) close() {
	for _, x := range bl.ds {
		x.st.Close()
	}
}

// drain sends the fleet's welcome mails (if any are queued) with the reader
// off, then delivers m order mails, one seat per game of f sending again
// and again, while the daemon is down, starts it, and times the drain
// against the raw limits; add reports each figure.
func (bl *backlog) drain(t *testing.T, s stack, f *fleet, add func(figure, value, target string, met *bool)) {
	ctx := context.Background()
	n := nonce()
	st, d, r, rec, bot, m := bl.ds[0].st, bl.ds[0].d, bl.ds[0].r, bl.rec, bl.bot, bl.m
	ng := len(f.games)
	// Send the welcome mails first, with the reader off: the drain below
	// measures order mails and their acks only. Before them, whatever is
	// due in the games: TestScale's databases are built without a tick,
	// so every game is due, and a daemon that has been running (or the
	// scale run's own tick part) has done that long before a backlog.
	// Left to the daemon's first tick it ran inside the drain.
	if _, err := d.Service().Tick(ctx); err != nil {
		t.Fatal(err)
	}
	qctx, qcancel := context.WithCancel(ctx)
	go d.Run(qctx, r) // nothing in the inbox yet
	if err := waitOutbox(st, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	qcancel()
	time.Sleep(200 * time.Millisecond)
	jobs, err := openJobs(ctx, d.Service(), f, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	// The drain's mails go to the fleet's players, whose mailboxes on
	// this long-lived Dovecot hold every earlier run's: tens of
	// thousands of mails, into which each delivery costs Dovecot more.
	// Emptied here, and again before raw limit B, the same mails land in
	// the same empty mailboxes both times.
	players := f.addresses()
	s.settle(t)
	s.emptyMailboxes(t, players)
	// One seat per game sends again and again: its orders replace each
	// other, so turns resolve only where it is the last one to play.
	bySeat := map[string]job{}
	var order []job
	for _, j := range jobs {
		if _, ok := bySeat[j.game]; !ok {
			bySeat[j.game] = j
			order = append(order, j)
		}
	}
	if len(order) == 0 {
		t.Fatal("no open questions in the fleet")
	}
	raw := "raw-" + n + "@" + s.Domain
	// This run's own mailboxes (the daemon's, raw limit's, the sink of
	// raw limit A) are new names each run and would stay full: emptied
	// at the end, the long-lived mail store does not grow by the 15,000
	// mails of every run (it had reached 15 GB again; at 53 GB Dovecot's
	// deliveries had cost twice as much, pbem/soak/README.md).
	defer s.emptyMailboxes(t, []string{bot, raw, "sink-" + n + "@example.org"})
	t0 := time.Now()
	if err := s.injectMany(bot, m, func(i int) []byte {
		j := order[i%len(order)]
		return rawMail(j.mail(bot, fmt.Sprintf("bl-%d-%s@players.example.org", i, n)))
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.injectMany(raw, m, func(i int) []byte {
		j := order[i%len(order)]
		return rawMail(j.mail(raw, fmt.Sprintf("raw-%d-%s@players.example.org", i, n)))
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("injected 2×%d mails in %v", m, time.Since(t0).Round(time.Millisecond))

	runCtx, cancel := context.WithCancel(ctx)
	var running sync.WaitGroup
	t0 = time.Now()
	started, writtenBefore, stats0, cpu0 := t0, procWritten(), st.Stats(), sampleCPU()
	rec.record(true)
	bl.counting.Store(true)
	stopProfile := startDrainProfile(t)
	pgs := startPGSide(t, st)
	daemon0 := make([]store.Stats, len(bl.ds))
	for i, x := range bl.ds {
		daemon0[i] = x.st.Stats()
		x.sent.Store(0)
		running.Go(func() { x.d.Run(runCtx, x.r) })
	}
	var orrery time.Duration
	select {
	case <-bl.all:
		orrery = time.Since(t0)
	case <-time.After(10 * time.Minute):
		t.Errorf("only %d of %d acks after 10 minutes", bl.replies.Load(), m)
		orrery = time.Since(t0)
	}
	cpu1 := sampleCPU()
	heldDrain := s.queued()
	cpuDrain, groupsDrain := cpuSince(cpu0, cpu1, orrery), byGroup(cpu0, cpu1)
	stopProfile()
	sent := rec.record(false)
	pgs.stop(t, m, len(sent))
	written, stats := procWritten()-writtenBefore, st.Stats().Sub(stats0)
	var each, retries []string
	for i, x := range bl.ds {
		each = append(each, fmt.Sprint(x.sent.Load()))
		d := x.st.Stats().Sub(daemon0[i])
		retries = append(retries, fmt.Sprintf("%d in %d commits (%.2f a commit)", d.Retries, d.Commits, float64(d.Retries)/float64(max(d.Commits, 1))))
		if c := pgstore.Conflicts(x.st); len(c) > 0 {
			t.Logf("daemon %d's transactions refused since it opened, by what was refused: %v", i+1, c)
		}
	}
	cancel()
	running.Wait()
	kinds := map[string]int{}
	for _, x := range sent {
		kinds[x.Kind]++
	}
	// Postfix is still delivering the drain's last mails: let it finish,
	// so that the raw runs do not pay for them.
	s.settle(t)
	deliveredDrain := time.Since(started)
	t0 = time.Now()
	if err := s.rawFetchAndSend(raw, m, nil, func(int) []outbox.Mail {
		return []outbox.Mail{{To: []string{"sink-" + n + "@example.org"}, Subject: "Re: orders", Text: "got it\n"}}
	}); err != nil {
		t.Fatal(err)
	}
	short := time.Since(t0)
	// Raw limit B twice (or -scale.rawruns times), each into emptied
	// mailboxes and an empty Postfix queue: the servers' CPU for the same
	// mails still moves a little from run to run, so the ratio is taken
	// to the mean of the first two; the others are only logged.
	sames := make([]time.Duration, max(2, *flagScaleRawRuns))
	held, delivered := make([]int, len(sames)), make([]time.Duration, len(sames))
	var cpuRaw, groupsRaw string
	for k := range sames {
		s.settle(t)
		s.emptyMailboxes(t, players)
		t0 = time.Now()
		cpu0 = sampleCPU()
		if err := s.rawFetchAndSend(raw, m, rec.picture, func(i int) []outbox.Mail {
			// After the i-th fetched mail, as many of the drain's mails as
			// its share: the same mails at the same pace per fetched mail.
			return sent[i*len(sent)/m : (i+1)*len(sent)/m]
		}); err != nil {
			t.Fatal(err)
		}
		sames[k] = time.Since(t0)
		cpu1 = sampleCPU()
		held[k] = s.queued()
		if k == 0 {
			cpuRaw, groupsRaw = cpuSince(cpu0, cpu1, sames[k]), byGroup(cpu0, cpu1)
		}
		t.Logf("raw limit B, run %d: %v, %d mails left in Postfix's queue; CPU %s; by process: %s", k+1, sames[k].Round(time.Millisecond), held[k], cpuSince(cpu0, cpu1, sames[k]), byGroup(cpu0, cpu1))
		s.settle(t)
		delivered[k] = time.Since(t0)
	}
	same := (sames[0] + sames[1]) / 2
	ours := float64(bl.replies.Load()) / orrery.Seconds()
	limShort, limSame := float64(m)/short.Seconds(), float64(m)/same.Seconds()
	add(fmt.Sprintf("drain of %d order mails over %d games (IMAP fetch, parse, apply, ack by SMTP)", m, ng), fmt.Sprintf("%v, %.1f mails/s", orrery.Round(time.Millisecond), ours), "", nil)
	add("mails the daemon sent during the drain", fmt.Sprintf("%d: %d acks, %d turn reports, %d other", len(sent), kinds["reply"], kinds["report"], len(sent)-kinds["reply"]-kinds["report"]), "", nil)
	if len(bl.ds) > 1 {
		add(fmt.Sprintf("mails each of the %d daemons' outboxes sent during the drain (one of them reads the mailbox)", len(bl.ds)), strings.Join(each, " / "), "", nil)
	}
	if st.Kind() == "postgres" {
		add("transactions PostgreSQL refused and ran again during the drain (each daemon)", strings.Join(retries, " / "), "", nil)
		add("round trips to PostgreSQL during the drain (the first daemon)", fmt.Sprintf("%d (%.1f an order mail, %.1f a mail sent)", stats.RoundTrips, float64(stats.RoundTrips)/float64(m), float64(stats.RoundTrips)/float64(max(len(sent), 1))), "", nil)
	}
	add("batches the outbox handed to SMTP during the drain (connections)", fmt.Sprintf("%d (%.1f mails each)", rec.calls, float64(len(sent))/float64(max(rec.calls, 1))), "", nil)
	if writtenBefore >= 0 {
		add("bytes this process (the daemon) wrote to disk during the drain; its (first) store's commits, their time, and bbolt's writes (a node or the freelist each)", fmt.Sprintf("%.0f MB (%.1f MB/s); %d commits, %v, %d writes", float64(written)/1e6, float64(written)/1e6/orrery.Seconds(),
			stats.Commits, stats.CommitTime.Round(time.Millisecond), stats.PageWrites), "", nil)
	}
	if len(rec.ends) > 0 {
		// The pace of sending in each third of the drain: the reader
		// handles the whole backlog in the first part of it, so a first
		// third much slower than the last says that the servers answer
		// more slowly while the daemon handles mail beside them.
		var thirds [3]int
		for _, e := range rec.ends {
			thirds[min(2, int(3*e.at.Sub(started)/max(orrery, time.Millisecond)))] += e.n
		}
		third := orrery.Seconds() / 3
		add("mails sent a second in each third of the drain", fmt.Sprintf("%.0f / %.0f / %.0f", float64(thirds[0])/third, float64(thirds[1])/third, float64(thirds[2])/third), "", nil)
	}
	if !rec.first.IsZero() {
		// Where the drain's time went: before the first send (start,
		// first fetch, first batch handled), and the outbox's SMTP
		// connections idle after it (waiting for mail or the database).
		add("the outbox's first send after the daemon's start; its connections busy sending after it", fmt.Sprintf("%v; %.0f%%", rec.first.Sub(started).Round(time.Millisecond),
			100*rec.busy.Seconds()/max(orrery-rec.first.Sub(started), time.Millisecond).Seconds()), "", nil)
	}
	add("raw limit A: bare go-imap fetch + go-mail send of one short mail per order mail", fmt.Sprintf("%v, %.1f order mails/s", short.Round(time.Millisecond), limShort), "", nil)
	pictured := ""
	rec.mu.Lock()
	drawn := len(rec.pictures)
	rec.mu.Unlock()
	if n := drawn; n > 0 {
		pictured = fmt.Sprintf(", the %d board pictures the drain drew attached again", n)
		var whole, another, kept, again int64
		for _, x := range bl.ds {
			w, a, k, r := x.d.PicturesDrawn()
			whole, another, kept, again = whole+w, another+a, kept+k, again+r
		}
		add("board pictures the daemons drew: whole / from another seat's just drawn (draw.Painter); from the view kept when the mail was queued / from the step read again", fmt.Sprintf("%d / %d; %d / %d", whole, another, kept, again), "", nil)
	}
	add(fmt.Sprintf("raw limit B: the same fetch + go-mail send of the drain's own %d mails (same text, same players%s), the mean of two runs", len(sent), pictured),
		fmt.Sprintf("%v, %.1f order mails/s (%v and %v)", same.Round(time.Millisecond), limSame, sames[0].Round(time.Millisecond), sames[1].Round(time.Millisecond)), "", nil)
	// Where the cores' time went, in the drain and in raw limit B: on
	// this machine the daemon, PostgreSQL and the mail servers share two
	// cores, so the drain is as slow as the CPU it needs beyond raw B's.
	add("CPU during the drain (the daemons run in this process)", cpuDrain, "", nil)
	add("CPU during raw limit B (its client runs in this process)", cpuRaw, "", nil)
	add("CPU during the drain, by process", groupsDrain, "", nil)
	add("CPU during raw limit B, by process", groupsRaw, "", nil)
	if heldDrain >= 0 {
		// Each timed run ends when its last mail is handed to Postfix,
		// which delivers into Dovecot more slowly than it takes mail: what
		// it still held then is delivery work the run did not wait for.
		// Each run starts with the queue empty (settle), so none pays for
		// the one before; and the times to the last mail delivered say
		// the same race run to the end.
		var heldRaw []string
		for _, h := range held[:2] {
			heldRaw = append(heldRaw, fmt.Sprint(h))
		}
		add("mails Postfix still held, not yet delivered, when the drain's last mail was sent / when each raw limit B's was", fmt.Sprintf("%d / %s", heldDrain, strings.Join(heldRaw, " / ")), "", nil)
		deliveredRaw := (delivered[0] + delivered[1]) / 2
		add("to the last mail delivered into the players' mailboxes: the drain / raw limit B (the mean of its two runs); their ratio", fmt.Sprintf("%v / %v (%v and %v); %.2f×", deliveredDrain.Round(time.Millisecond), deliveredRaw.Round(time.Millisecond), delivered[0].Round(time.Millisecond), delivered[1].Round(time.Millisecond), deliveredRaw.Seconds()/deliveredDrain.Seconds()), "", nil)
	}
	if *flagScalePaced {
		// The same mails again, no faster than the drain sent them: what
		// the mail servers cost at the drain's pace. On a machine whose
		// cores they share, they need more CPU a mail when mail comes
		// slower (raw limit B sends as fast as they take it), and this run
		// tells that part of the drain's time from the daemon's own.
		s.settle(t)
		s.emptyMailboxes(t, players)
		t0 := time.Now()
		cpu0 := sampleCPU()
		if err := s.rawFetchAndSend(raw, m, rec.picture, func(i int) []outbox.Mail {
			if d := time.Until(t0.Add(orrery * time.Duration(i+1) / time.Duration(m))); d > 0 {
				time.Sleep(d)
			}
			return sent[i*len(sent)/m : (i+1)*len(sent)/m]
		}); err != nil {
			t.Fatal(err)
		}
		paced := time.Since(t0)
		cpu1 := sampleCPU()
		add("raw limit B at the drain's pace: the same mails, sent no faster than the drain sent them", fmt.Sprintf("%v; CPU %s", paced.Round(time.Millisecond), cpuSince(cpu0, cpu1, paced)), "", nil)
		add("CPU during raw limit B at the drain's pace, by process", byGroup(cpu0, cpu1), "", nil)
	}
	add("ours as a ratio of raw limit A (sends fewer mails than the drain)", fmt.Sprintf("%.2f×", ours/limShort), "", nil)
	// Each run's own ratio too: how far apart they are says how much a
	// single ratio is to be trusted.
	add("ours as a ratio of raw limit B (the same mail traffic; the mean of its two runs)", fmt.Sprintf("%.2f× (%.2f× / %.2f×)", ours/limSame, ours*sames[0].Seconds()/float64(m), ours*sames[1].Seconds()/float64(m)), "≥ 0.8×", ptr(ours/limSame >= 0.8))
}

// addresses are the fleet's players' addresses, each once.
func (f *fleet) addresses() []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range f.games {
		for _, st := range g.seats {
			if !seen[st.email] {
				seen[st.email] = true
				out = append(out, st.email)
			}
		}
	}
	return out
}

// emptyMailboxes expunges every mail of the users' inboxes with doveadm
// (scripts/mailstack.sh's Dovecot), so that deliveries to them cost what
// they cost into a fresh mailbox; without doveadm it says so and leaves
// them.
func (s stack) emptyMailboxes(t *testing.T, users []string) {
	t.Helper()
	if s.Doveadm == "" {
		t.Logf("ORRERY_E2E_DOVEADM_CONF is not set: the %d players' mailboxes are not emptied, and deliveries into them grow slower run by run", len(users))
		return
	}
	t0 := time.Now()
	for _, u := range users {
		if out, err := exec.Command("doveadm", "-c", s.Doveadm, "expunge", "-u", u, "mailbox", "*", "all").CombinedOutput(); err != nil {
			t.Logf("doveadm expunge -u %s: %v %s", u, err, out)
		}
	}
	t.Logf("emptied the mailboxes of %d addresses in %v", len(users), time.Since(t0).Round(time.Millisecond))
}

// queued is how many mails Postfix holds and has not yet delivered
// (postqueue -j, a line a mail), or -1 where that is not to be known.
func (s stack) queued() int {
	if s.Postfix == "" {
		return -1
	}
	out, err := exec.Command("postqueue", "-c", s.Postfix, "-j").Output()
	if err != nil {
		return -1
	}
	return bytes.Count(out, []byte("\n"))
}

// settle waits until Postfix has delivered every mail it holds. A timed
// run of the backlog ends when its last mail is handed to Postfix, with
// thousands not yet delivered: Postfix takes mail faster than it
// delivers it into Dovecot (a raw limit B run ended with 5,000 to 16,000
// of its 15,024 queued). Left there, their delivery took the cores from
// the next run, and the runs of raw limit B came out 41, 36, 34, 34 and
// 31 s for the same mails as each inherited more. Where the queue is
// not to be read (no ORRERY_E2E_POSTFIX_CONF, or postqueue failing) it
// waits 3 s, as the harness did before, and says so.
func (s stack) settle(t *testing.T) {
	t.Helper()
	n := s.queued()
	if n < 0 {
		why := "ORRERY_E2E_POSTFIX_CONF is not set"
		if s.Postfix != "" {
			why = "postqueue -c " + s.Postfix + " -j failed"
		}
		t.Logf("%s: 3 s for Postfix to deliver what it holds, not known to be enough", why)
		time.Sleep(3 * time.Second)
		return
	}
	t0 := time.Now()
	for left := n; left > 0; left = s.queued() {
		if time.Since(t0) > 10*time.Minute {
			t.Fatalf("Postfix still holds %d mails after 10 minutes", left)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n > 0 {
		t.Logf("Postfix delivered the %d mails it still held in %v", n, time.Since(t0).Round(100*time.Millisecond))
	}
}

// procWritten is what this process has written to disk so far
// (/proc/self/io write_bytes), or -1 where that is not to be read.
func procWritten() int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

func rawMail(m outbox.Mail) []byte {
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		m.From, m.To[0], m.Subject, m.MessageID, m.Date.Format(time.RFC1123Z), strings.ReplaceAll(m.Text, "\n", "\r\n"))
}

// injectMany delivers n mails to rcpt over one LMTP connection.
func (s stack) injectMany(rcpt string, n int, mail func(i int) []byte) error {
	return s.DeliverMany(context.Background(), "player@example.org", rcpt, n, mail)
}

// rawFetchAndSend is a raw limit: fetch the first n mails of user's inbox
// in batches of 50 and, after each batch, send with go-mail (one
// connection per batch, as the outbox does) the mails out(i) returns for
// each fetched mail i, from user, with no processing; a mail that asks for
// a picture gets what pictures returns (nil: none).
func (s stack) rawFetchAndSend(user string, n int, pictures func(context.Context, outbox.Picture) ([]byte, error), out func(i int) []outbox.Mail) error {
	sender := s.sender()
	sender.Pictures = pictures
	return s.FetchBatches(user, n, 50, func(first int, raws [][]byte) error {
		var batch []outbox.Mail
		for k, raw := range raws {
			if len(raw) == 0 {
				return fmt.Errorf("raw: mail %d came without its body", first+k)
			}
			for _, x := range out(first - 1 + k) {
				x.MessageID, x.From, x.Date = outbox.NewMessageID("raw.example.org"), user, time.Now()
				batch = append(batch, x)
			}
		}
		for _, err := range sender.Send(context.Background(), batch) {
			if err != nil {
				return err
			}
		}
		return nil
	})
}
