package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/engine/store/storeopen"
	"orrery/pbem/botplayer"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/settings"
	"orrery/pbem/unsub"
)

const demoDomain = "pbem.test"

// embedded is the mail daemon running against in-process mail servers.
type embedded struct {
	srv    *pbemtest.Server
	st     *store.Store
	d      *daemon.Daemon
	reader *imapin.Reader
	bot    string
	dir    string   // temporary directory to remove, if any
	web    *webSide // the web pages' listener, if any
}

// startEmbedded opens a store at o.DB (a bbolt file or postgres:DSN; a
// temporary file when ""), then starts in-process IMAP and SMTP servers at
// o.IMAP and o.SMTP, keeping their mailboxes in o.MailDir (in memory when
// ""), and a daemon reading the bot's mailbox. The store comes first: it
// holds the bbolt file's lock, so a second serve on the same db stops
// there, before it touches the mailboxes kept beside it.
// With o.HTTP it also opens the web pages' listener there, so that the
// daemon's report mails carry each player's private link.
// With o.Metrics, the daemon counts what it does (serveMetrics serves it).
func startEmbedded(e *env, o embeddedOptions, log *slog.Logger) (*embedded, error) {
	x := &embedded{bot: "orrery@" + demoDomain}
	db := o.DB
	var err error
	if db == "" {
		if x.dir, err = os.MkdirTemp("", "orrery-demo-"); err != nil {
			return nil, err
		}
		db = filepath.Join(x.dir, "demo.db")
	}
	spec, err := storeopen.Parse(db)
	if err != nil {
		x.close()
		return nil, err
	}
	if x.st, err = storeopen.Open(context.Background(), spec, storeopen.Options{Timeout: time.Second}); err != nil {
		x.close()
		return nil, err
	}
	if err := refuseMoved(x.st, spec); err != nil {
		x.close()
		return nil, err
	}
	srv, err := pbemtest.Start(pbemtest.Options{Users: map[string]string{x.bot: "orrery"}, IMAPAddr: o.IMAP, SMTPAddr: o.SMTP, Dir: o.MailDir})
	if err != nil {
		x.close()
		return nil, err
	}
	x.srv = srv
	if o.HTTP != "" {
		if x.web, err = listenWeb(o.HTTP, ""); err != nil {
			x.close()
			return nil, err
		}
	}
	sender := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}
	m := newMetrics(o.Metrics, x.st)
	q := outbox.New(x.st, sender, metricsOutbox(m, outbox.Options{MinBackoff: time.Second, Logger: log}))
	// The demo's players answer within milliseconds: a person's hourly
	// budget of replies would cut their acks short.
	tick := o.TickEvery
	if tick <= 0 {
		tick = time.Second
	}
	x.d, err = daemon.New(x.st, e.rulesets, q, daemon.Config{From: "Orrery <" + x.bot + ">", TickEvery: tick, Logger: log, RepliesPerHour: 100000,
		WebLink: x.web.link(), UnsubURL: x.web.base(), Metrics: m, Now: o.Now})
	if err != nil {
		x.close()
		return nil, err
	}
	wirePictures(x.d, sender)
	// go-imap's server may not report mail that arrives just as IDLE
	// starts: restart IDLE often, which costs nothing in-process.
	x.reader = imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none", Logger: log, IdleRestart: 500 * time.Millisecond,
		Credentials: func(context.Context) (string, string, error) { return x.bot, "orrery", nil }})
	metricsReader(m, x.reader)
	return x, nil
}

func (x *embedded) close() {
	x.web.close()
	if x.srv != nil {
		x.srv.Close()
	}
	if x.st != nil {
		x.st.Close()
	}
	if x.dir != "" {
		os.RemoveAll(x.dir)
	}
}

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "demo", "demo [--ruleset prosper] [--players N] [--option NAME=VALUE] [--turns N] [--seed N] [--lang ru] [--save DIR] [--http ADDR] [--imap-addr ADDR] [--smtp-addr ADDR] [--stay] [-v]",
		"Plays a whole game by mail on this machine: in-process IMAP and SMTP servers,\n"+
			"the mail daemon, and built-in players who read their reports and send their\n"+
			"orders as real mails. Prints the mails exchanged, the result, and the last\n"+
			"report as the first player got it. --save DIR writes every mail as an .eml\n"+
			"file to open in a mail client. The game's web pages are served on a loopback\n"+
			"port while it plays (--stay keeps them up). The game's clock runs a day ahead\n"+
			"for a reminder before the first deadline; in English the game also has an\n"+
			"observer (oli) and a reader of the daily digest (dan), and the clock runs\n"+
			"ahead once more for the next morning's digest.")
	rulesetName := fs.String("ruleset", "prosper", "ruleset to play")
	players := fs.Int("players", 3, "number of players (default 3, or the nearest count the ruleset takes)")
	turns := fs.Int("turns", 0, "stop after this many turns (0: play to the end)")
	seed := fs.Uint64("seed", 1, "seed of the players' choices and of the dice secret")
	verbose := fs.Bool("v", false, "print the text of every mail, and the daemon's log")
	language := fs.String("lang", "", "every player's language (LANG setting): en or ru")
	save := fs.String("save", "", "write every mail to this directory as NNN-from-kind[-to].eml")
	timeout := lengthFlag(fs, "timeout", 5*time.Minute, "give up after this long")
	metricsAddr := fs.String("metrics-listen", "", "serve the daemon's /metrics, /healthz and /readyz at host:port while the demo runs (as metrics.listen does)")
	httpAddr := fs.String("http", "127.0.0.1:0", "the web pages' address (port 0: any free one; \"\": none)")
	stay := fs.Bool("stay", false, "keep the web pages up after the game, until interrupted")
	imapAddr := fs.String("imap-addr", "127.0.0.1:0", "the IMAP server's address (port 0: any free one); its mailboxes live in memory and go with the demo")
	smtpAddr := fs.String("smtp-addr", "127.0.0.1:0", "the SMTP server's address (port 0: any free one)")
	var options multi
	fs.Var(&options, "option", "ruleset option NAME=VALUE (repeatable; see orrery rulesets RULESET)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	opts, err := optionMap(options)
	if err != nil {
		return err
	}
	if *imapAddr, _, err = pickAddr("imap-addr", *imapAddr, true); err != nil {
		return err
	}
	if *smtpAddr, _, err = pickAddr("smtp-addr", *smtpAddr, true); err != nil {
		return err
	}
	var tag lang.Tag
	if *language != "" {
		var ok bool
		if tag, ok = lang.Parse(*language); !ok {
			return fmt.Errorf("--lang %q: the languages are %v", *language, lang.Supported)
		}
	}
	rs, err := engine.Find(e.rulesets, *rulesetName)
	if err != nil {
		return err
	}
	info := rs.Info()
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "players" })
	if !given {
		// Three unless the game says otherwise: Orbital is for two.
		*players = min(max(*players, info.MinPlayers), info.MaxPlayers)
	}
	if *players < info.MinPlayers || *players > info.MaxPlayers {
		return fmt.Errorf("%s takes %d to %d players, not %d", info.Name, info.MinPlayers, info.MaxPlayers, *players)
	}
	log := slog.New(slog.DiscardHandler)
	if *verbose {
		log = slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	clock := &demoClock{}
	x, err := startEmbedded(e, embeddedOptions{HTTP: *httpAddr, Metrics: *metricsAddr, IMAP: *imapAddr, SMTP: *smtpAddr, Now: clock.Now,
		TickEvery: 50 * time.Millisecond}, log)
	if err != nil {
		return err
	}
	defer x.close()
	outer := ctx
	if x.web != nil {
		// The pages outlive the timeout with --stay: they stop with outer.
		site, err := newSite(x.d.Service(), x.bot, x.web.url, log)
		if err != nil {
			return err
		}
		webCtx, webStop := context.WithCancel(outer)
		webDone := make(chan struct{})
		go func() {
			defer close(webDone)
			mux := http.NewServeMux()
			mux.Handle(unsub.Path, x.d.UnsubscribeHandler())
			mux.Handle("/", site)
			if err := x.web.serve(webCtx, mux, log); err != nil {
				log.Error("web pages", "err", err)
			}
		}()
		defer func() { webStop(); <-webDone }()
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if *metricsAddr != "" {
		_, wait, err := serveMetrics(ctx, e, *metricsAddr, x.d, x.st, (&outbox.SMTP{Addr: x.srv.SMTPAddr, TLS: "none"}).Probe, log)
		if err != nil {
			return err
		}
		defer wait()
		defer cancel()
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- x.d.Run(runCtx, x.reader) }()
	defer func() { stop(); <-done }()

	names := []string{"ann", "bob", "cyd", "dee", "eve", "fay", "gus", "hal"}
	var specs []game.PlayerSpec
	for i := 0; i < *players; i++ {
		addr := names[i] + "@example.org"
		if tag != "" {
			// As the players would by mail: SET LANG ru.
			if _, err := settings.Put(ctx, x.st, addr, settings.Lang, string(tag)); err != nil {
				return err
			}
		}
		specs = append(specs, game.PlayerSpec{Name: names[i], Email: addr, Lang: string(tag)})
	}
	svc := x.d.Service()
	start := time.Now()
	// An observer, and one who reads the game in the daily digest (SET
	// DIGEST on, as they would by mail): the demo shows every kind of
	// mail a game sends, and its deadline gets a reminder.
	watchers := []string{demoObserver, demoDigest}
	if _, err := settings.Put(ctx, x.st, demoDigest, settings.Digest, "on"); err != nil {
		return err
	}
	if tag != "" && tag != "en" {
		for _, addr := range watchers {
			if _, err := settings.Put(ctx, x.st, addr, settings.Lang, string(tag)); err != nil {
				return err
			}
		}
	}
	g, err := svc.Create(ctx, game.CreateRequest{ID: "demo", Ruleset: info.Name, Players: specs, Options: opts,
		DiceSecret: fmt.Sprintf("demo-%d", *seed),
		Settings:   &game.Settings{Early: true, TurnLength: demoTurn, Reminders: []time.Duration{demoRemind}}})
	if err != nil {
		return err
	}
	for _, addr := range watchers {
		if _, _, err := svc.Observe(ctx, g.ID, addr, true); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "Orrery demo: %s (%s) by mail for %d players.\n", info.Title, info.Name, *players)
	fmt.Fprintf(e.stdout, "IMAP %s, SMTP %s; the bot is %s.\n", x.srv.IMAPAddr, x.srv.SMTPAddr, x.bot)
	if x.web != nil {
		fmt.Fprintf(e.stdout, "Follow it on the web: %s/g/%s (each player's mail links to their own page).\n", x.web.url, g.ID)
	}
	fmt.Fprintln(e.stdout)

	sender := &outbox.SMTP{Addr: x.srv.SMTPAddr, TLS: "none"}
	mailers := &botplayer.Players{Service: svc, Game: g.ID, Bot: x.bot, Rand: rand.New(rand.NewPCG(*seed, 99)),
		Fetch: func(addr string) ([][]byte, error) { return x.srv.Messages(addr, "INBOX") },
		Send: func(ctx context.Context, m outbox.Mail) error {
			m.Kind = "" // players' mails carry no headers of ours
			return sender.Send(ctx, []outbox.Mail{m})[0]
		}}
	// The first step waits a day, as a slow game's would: the clock runs
	// ahead into the reminder's hour, and every player gets one before
	// they answer.
	if err := demoRemind1(ctx, x, clock, g.ID); err != nil {
		return err
	}
	if g, err = mailers.Play(ctx, *turns); err != nil {
		// Show what was exchanged up to the failure: it says why.
		printSummary(e.stdout, x.srv.Sent(), start, *verbose)
		if *save != "" {
			saveMails(*save, x.srv.Sent())
		}
		return err
	}
	// Let the last reports leave.
	for {
		st, err := outbox.Count(x.st)
		if err != nil {
			return err
		}
		if st.Queued == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: %d mails still queued: %w", st.Queued, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	// And the next morning, the digest reader gets the game's news.
	if len(watchers) > 0 {
		if err := demoNextMorning(ctx, x, clock); err != nil {
			return err
		}
	}
	elapsed := time.Since(start)
	sent := x.srv.Sent()
	printSummary(e.stdout, sent, start, *verbose)
	if last := lastReport(sent, specs[0].Email); last != nil {
		fmt.Fprintf(e.stdout, "\nThe last report, as %s got it (its text part):\n%s\n%s", specs[0].Name, strings.Repeat("-", 78), mailText(last.Data))
		fmt.Fprintln(e.stdout, strings.Repeat("-", 78))
	}
	if *save != "" {
		n, err := saveMails(*save, sent)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%d mails written to %s as .eml files.\n", n, *save)
	}
	fmt.Fprintln(e.stdout)
	if g.Over() {
		fmt.Fprintf(e.stdout, "The game is over after %s (%s): %s\n", lang.N(g.Turn, "turn", "turns"), lang.N(int(g.Step), "step", "steps"), g.Outcome.Text)
		if len(g.Outcome.Winners) > 0 {
			fmt.Fprintf(e.stdout, "Winners: %s\n", strings.Join(g.Outcome.Winners, ", "))
		}
	} else {
		fmt.Fprintf(e.stdout, "Stopped after %s (%s), as asked.\n", lang.N(*turns, "turn", "turns"), lang.N(int(g.Step), "step", "steps"))
	}
	v, err := svc.Verify(ctx, g.ID)
	if err != nil {
		return err
	}
	if !v.OK() {
		return fmt.Errorf("replay verify failed: %s", strings.Join(v.Problems, "; "))
	}
	fmt.Fprintf(e.stdout, "Replay verified: %s, %s re-derived from the revealed seeds.\n", lang.N(int(v.Steps), "step", "steps"), lang.N(v.Rolls, "die roll", "dice rolls"))
	fmt.Fprintf(e.stdout, "%s in %s.\n", lang.N(len(x.srv.Sent()), "mail", "mails"), elapsed.Round(time.Millisecond))
	if *stay && x.web != nil {
		fmt.Fprintf(e.stdout, "\nThe web pages stay up at %s/g/%s; stop with Ctrl-C.\n", x.web.url, g.ID)
		<-outer.Done()
	}
	return nil
}

const (
	demoObserver = "oli@example.org" // observes the game
	demoDigest   = "dan@example.org" // observes it in the daily digest
	// demoTurn is the demo game's turn length and demoRemind when before
	// the deadline a player who has not sent orders is reminded.
	demoTurn   = 48 * time.Hour
	demoRemind = 24 * time.Hour
)

// demoClock is the demo's clock: real time, run ahead by the demo so that
// a minute's game shows what days of one send (a reminder, a digest).
type demoClock struct{ ahead atomic.Int64 }

func (c *demoClock) Now() time.Time          { return time.Now().Add(time.Duration(c.ahead.Load())) }
func (c *demoClock) advance(d time.Duration) { c.ahead.Add(int64(d)) }

// demoRemind1 runs the clock into the reminder's hour of the first step
// and waits until the daemon's tick has reminded the players. A step that
// awaits no one gets no reminder: after a few ticks the demo goes on.
func demoRemind1(ctx context.Context, x *embedded, clock *demoClock, id string) error {
	clock.advance(demoTurn - demoRemind + time.Minute)
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := demoWait(wait, x, "the first step's reminder", func() (bool, error) {
		g, err := x.d.Service().Get(wait, id)
		return err == nil && len(g.Reminded) > 0, err
	})
	if err != nil && ctx.Err() == nil && wait.Err() != nil {
		return nil
	}
	return err
}

// demoNextMorning runs the clock a day ahead, past the digest's hour,
// and waits until the digest has been sent.
func demoNextMorning(ctx context.Context, x *embedded, clock *demoClock) error {
	clock.advance(25 * time.Hour)
	return demoWait(ctx, x, "the digest", func() (bool, error) {
		for _, m := range x.srv.Sent() {
			if _, _, _, kind := mailHead(m); kind == "digest" {
				return true, nil
			}
		}
		return false, nil
	})
}

// demoWait waits until done says so and the outbox is empty.
func demoWait(ctx context.Context, x *embedded, what string, done func() (bool, error)) error {
	for {
		ok, err := done()
		if err != nil {
			return err
		}
		if ok {
			st, err := outbox.Count(x.st)
			if err != nil {
				return err
			}
			if st.Queued == 0 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: waiting for %s: %w", what, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// summaryLine is one line of the demo's summary: a mail, or the same
// report sent to several players at once.
type summaryLine struct {
	at         time.Duration
	from, kind string
	to         []string
	what       string
	step       string
}

var subjectTag = regexp.MustCompile(`^(Re: )?\[[^\]]*\] *`)

// printSummary lists the mails, one a line: players' orders by their first
// lines, the bot's mails by subject, a report sent to everyone once.
func printSummary(w io.Writer, sent []pbemtest.Mail, start time.Time, full bool) {
	var lines []*summaryLine
	for _, m := range sent {
		l := &summaryLine{at: m.At.Sub(start), kind: "orders"}
		l.from = senderName(m)
		for _, t := range m.To {
			n, _, _ := strings.Cut(t, "@")
			l.to = append(l.to, n)
		}
		if msg, err := mail.ReadMessage(bytes.NewReader(m.Data)); err == nil {
			if k := msg.Header.Get("X-Orrery-Kind"); k != "" {
				l.kind = k
			}
			l.step = msg.Header.Get("X-Orrery-Step")
			l.what = msg.Header.Get("Subject")
			if d, err := new(mime.WordDecoder).DecodeHeader(l.what); err == nil {
				l.what = d
			}
			l.what = subjectTag.ReplaceAllString(l.what, "")
			for _, n := range l.to {
				l.what = strings.TrimSuffix(strings.TrimSuffix(l.what, " for "+n), ", "+n)
			}
		}
		if l.kind == "orders" {
			if pm, err := inmail.Parse(m.Data, inmail.Options{}); err == nil {
				var orders []string
				for _, o := range strings.Split(pm.Text, "\n") {
					if o = strings.TrimSpace(o); o != "" {
						orders = append(orders, o)
					}
				}
				l.what = strings.Join(orders, "; ")
			}
		}
		if same := sameMail(lines, l); same != nil {
			same.to = append(same.to, l.to...)
			continue
		}
		lines = append(lines, l)
	}
	fmt.Fprintln(w, "  time    from    to           kind     what")
	for _, l := range lines {
		to := strings.Join(l.to, ",")
		if len(to) > 12 {
			to = fmt.Sprintf("%d players", len(l.to))
		}
		line := fmt.Sprintf("  %5.2fs  %-6s  %-12s %-8s %s", l.at.Seconds(), l.from, to, l.kind, l.what)
		if utf8.RuneCountInString(line) > 78 {
			line = string([]rune(line)[:77]) + "…"
		}
		fmt.Fprintln(w, line)
	}
	if full {
		for i, m := range sent {
			from, to, subject, kind := mailHead(m)
			fmt.Fprintf(w, "\n=== mail %d, %s from %s to %s\nSubject: %s\n\n%s", i+1, kind, from, strings.Join(to, ", "), subject, mailText(m.Data))
		}
	}
}

// sameMail returns the line of lines that l is another copy of, or nil: the
// bot's mail of the same step and kind as the line just before (a report
// sent to everyone), or as an earlier line with the same subject and none
// of l's recipients. The earlier line counts because the players answer as
// soon as their copy arrives: on a loaded machine ann's orders can reach the
// server between her welcome and bob's, and the welcome is still one mail.
func sameMail(lines []*summaryLine, l *summaryLine) *summaryLine {
	if l.step == "" {
		return nil // a player's mail
	}
	for i := len(lines) - 1; i >= 0; i-- {
		p := lines[i]
		if p.step != l.step || p.kind != l.kind || p.from != l.from {
			continue
		}
		if i == len(lines)-1 {
			return p
		}
		if p.what == l.what && !slices.ContainsFunc(l.to, func(n string) bool { return slices.Contains(p.to, n) }) {
			return p
		}
		return nil
	}
	return nil
}

// senderName is the local part of the address a mail is from, as its From
// header says: the bot's envelope sender is a bounce address of its own
// for every mail (VERP, pbem/bounce), orrery+b-… for orrery.
func senderName(m pbemtest.Mail) string {
	from := m.From
	if msg, err := mail.ReadMessage(bytes.NewReader(m.Data)); err == nil {
		if a, err := mail.ParseAddress(msg.Header.Get("From")); err == nil {
			from = a.Address
		}
	}
	name, _, _ := strings.Cut(from, "@")
	return name
}

// mailHead is who a mail is from and to, its decoded subject and its kind
// (X-Orrery-Kind; "orders" for a player's mail).
func mailHead(m pbemtest.Mail) (from string, to []string, subject, kind string) {
	from = senderName(m)
	for _, t := range m.To {
		n, _, _ := strings.Cut(t, "@")
		to = append(to, n)
	}
	kind = "orders"
	if msg, err := mail.ReadMessage(bytes.NewReader(m.Data)); err == nil {
		if k := msg.Header.Get("X-Orrery-Kind"); k != "" {
			kind = k
		}
		subject = msg.Header.Get("Subject")
		if d, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
			subject = d
		}
	}
	return from, to, subject, kind
}

// mailText is the decoded text/plain part of a raw mail (the first one),
// as a player's mail client shows it.
func mailText(raw []byte) string {
	text, ok := pbemtest.PlainText(raw)
	if !ok {
		return "(no text part)\n"
	}
	return text
}

// lastReport is the last report (or welcome) mailed to addr.
func lastReport(sent []pbemtest.Mail, addr string) *pbemtest.Mail {
	for i := len(sent) - 1; i >= 0; i-- {
		m := sent[i]
		if len(m.To) == 0 || !strings.EqualFold(m.To[0], addr) {
			continue
		}
		if _, _, _, kind := mailHead(m); kind == "report" || kind == "welcome" {
			return &sent[i]
		}
	}
	return nil
}

// saveMails writes every mail to dir as an .eml file named by its
// sequence, sender and kind (and recipient, for the server's mails), so
// that anyone can open what the players got in their own mail client.
func saveMails(dir string, sent []pbemtest.Mail) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	for i, m := range sent {
		from, to, _, kind := mailHead(m)
		name := fmt.Sprintf("%03d-%s-%s", i+1, from, kind)
		if kind != "orders" && len(to) == 1 {
			name += "-to-" + to[0]
		}
		if err := os.WriteFile(filepath.Join(dir, name+".eml"), m.Data, 0o644); err != nil {
			return i, err
		}
	}
	return len(sent), nil
}
