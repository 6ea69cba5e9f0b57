package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storeopen"
	"orrery/pbem/bounce"
	mailcmd "orrery/pbem/command"
	"orrery/pbem/config"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/policy"
	"orrery/pbem/unsub"
)

func runServe(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "serve", "serve --config FILE | serve --embedded [--db FILE|postgres:DSN] [--imap-addr ADDR] [--smtp-addr ADDR] [--mail-dir DIR]",
		"Runs the mail daemon: reads players' mail over IMAP, applies it to the\n"+
			"games, and answers over SMTP, until interrupted.\n\n"+
			"With --embedded it runs its own IMAP and SMTP servers on localhost instead\n"+
			"(nothing leaves the machine) and prints their ports and accounts, so you\n"+
			"can point a mail client at them and play by hand, and serves the games'\n"+
			"web pages on a loopback port (--http). The ports are the same at every\n"+
			"start ("+embeddedIMAPAddr+" and "+embeddedSMTPAddr+" unless --imap-addr and --smtp-addr\n"+
			"say otherwise), and the mailboxes are kept beside the database (--mail-dir),\n"+
			"so a mail client set up once finds its mail again. While it runs, every\n"+
			"other orrery command given the same --db goes through it.\n\n"+
			"With http.listen in the config, it serves the same read-only web pages.")
	cfgPath := fs.String("config", "", "config file (default: ORRERY_CONFIG); see config.example.yaml")
	embeddedMode := fs.Bool("embedded", false, "run in-process IMAP and SMTP servers on localhost")
	dbPath := fs.String("db", "", "database file, or postgres:DSN (default: the config's store; with --embedded, "+embeddedDB+" in the working directory)")
	httpAddr := fs.String("http", "127.0.0.1:0", "with --embedded: the web pages' address (port 0: any free one; \"\": none)")
	metricsAddr := fs.String("metrics-listen", "", "serve /metrics, /healthz and /readyz at host:port (with --config: instead of metrics.listen)")
	imapAddr := fs.String("imap-addr", embeddedIMAPAddr, "with --embedded: the IMAP server's address (port 0: any free one); a default port that is taken falls back to a free one")
	smtpAddr := fs.String("smtp-addr", embeddedSMTPAddr, "with --embedded: the SMTP server's address (port 0: any free one); as --imap-addr")
	mailDir := fs.String("mail-dir", "", "with --embedded: the directory that keeps the mailboxes (default: beside the db file, orrery-embedded.mail for orrery-embedded.db; with postgres:DSN, in memory)")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("serve takes no arguments, got %q", strings.Join(rest, " "))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *embeddedMode {
		return serveEmbedded(ctx, e, embeddedOptions{DB: *dbPath, HTTP: *httpAddr, Metrics: *metricsAddr,
			IMAP: *imapAddr, SMTP: *smtpAddr, MailDir: *mailDir}, given)
	}
	for _, f := range []string{"imap-addr", "smtp-addr", "mail-dir"} {
		if given[f] {
			return fmt.Errorf("--%s is for serve --embedded; with --config the mail servers are the config's imap.server and smtp.server", f)
		}
	}
	if *cfgPath == "" {
		*cfgPath = os.Getenv("ORRERY_CONFIG")
	}
	if *cfgPath == "" {
		return errors.New("serve needs --config FILE (copy config.example.yaml), or --embedded to try it on this machine")
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		return err
	}
	if *dbPath != "" {
		cfg.DB, cfg.Database = *dbPath, config.Database{} // FILE or postgres:DSN
	}
	if *metricsAddr != "" {
		cfg.Metrics.Listen = *metricsAddr
	}
	srv, err := newServer(e, cfg, *cfgPath)
	if err != nil {
		return err
	}
	defer srv.st.Close()
	defer srv.smtp.CloseIdle() // QUIT on the connection kept for the next batch
	setGC(cfg.GCPercent, srv.log)
	if srv.ws != nil {
		defer srv.ws.close()
	}
	st, d, r, ws, log := srv.st, srv.d, srv.r, srv.ws, srv.log
	fmt.Fprintf(e.stdout, "orrery: serving %s as %s (IMAP %s, SMTP %s); stop with Ctrl-C\n", st.Name(), cfg.From, cfg.IMAP.Server, cfg.SMTP.Server)
	// The daemon's HTTP listeners, one per address. When metrics.listen
	// names http.listen's address, the metrics ride on the web pages'
	// listener (ws.extra); otherwise they have their own.
	hs := newHTTPServers()
	if a := cfg.Metrics.Listen; a != "" {
		if ws != nil && a == cfg.HTTP.Listen {
			ws.extra = http.NewServeMux()
			hs.muxes[a] = ws.extra
			addMetrics(hs, a, d, st, srv.smtp.Probe)
			delete(hs.muxes, a)
			fmt.Fprintf(e.stdout, "orrery: metrics on http://%s/metrics (health: /healthz, /readyz), beside the web pages\n", ws.ln.Addr())
		} else {
			addMetrics(hs, a, d, st, srv.smtp.Probe)
		}
	}
	if len(hs.muxes) > 0 {
		hctx, stop := context.WithCancel(ctx)
		bound, wait, err := hs.Start(hctx, log)
		if err != nil {
			stop()
			return err
		}
		defer wait()
		defer stop()
		if a := cfg.Metrics.Listen; a != "" && bound[a] != "" {
			fmt.Fprintf(e.stdout, "orrery: metrics on http://%s/metrics (health: /healthz, /readyz)\n", bound[a])
		}
	}
	if ws != nil {
		fmt.Fprintf(e.stdout, "orrery: web pages on %s, for players at %s/\n", ws.ln.Addr(), ws.url)
	}
	e.backup = cfg.Backup
	err = runDaemon(ctx, e, st, d, r, ws, cfg.From, log)
	if errors.Is(err, imapin.ErrLogin) {
		return fmt.Errorf("%w; check imap.username and imap.password_env, password_file or oauth2 in %s", err, *cfgPath)
	}
	return err
}

// server is `orrery serve` put together from its config: the store, the
// outbox, the daemon, the IMAP reader, and the logger they share.
type server struct {
	cfg  *config.Config
	st   *store.Store
	q    *outbox.Queue
	d    *daemon.Daemon
	r    *imapin.Reader
	ws   *webSide
	log  *slog.Logger
	smtp *outbox.SMTP
}

// newServer opens the database and wires the daemon as cfg says; the
// caller closes srv.st.
func newServer(e *env, cfg *config.Config, cfgPath string) (*server, error) {
	log := newLogger(e, cfg.Log.Level, cfg.Log.Format)
	for _, w := range append(append([]string(nil), cfg.Warnings...), cfg.SecurityWarnings()...) {
		log.Warn("config " + cfgPath + ": " + w)
	}
	name, err := cfg.StoreName()
	if err != nil {
		return nil, err
	}
	spec, err := storeopen.Parse(name)
	if err != nil {
		return nil, err
	}
	st, err := storeopen.Open(context.Background(), spec, storeopen.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", spec, err)
	}
	if err := refuseMoved(st, spec); err != nil {
		st.Close()
		return nil, err
	}
	gmSecret, err := cfg.GMSecret()
	if err != nil {
		st.Close()
		return nil, err
	}
	var ws *webSide
	if cfg.HTTP.Listen != "" {
		if ws, err = listenWeb(cfg.HTTP.Listen, cfg.HTTP.URL); err != nil {
			st.Close()
			return nil, fmt.Errorf("http.listen: %w", err)
		}
	}
	fail := func(err error) (*server, error) {
		if ws != nil {
			ws.close()
		}
		st.Close()
		return nil, err
	}
	m := newMetrics(cfg.Metrics.Listen, st)
	smtp := &outbox.SMTP{Addr: cfg.SMTP.Server, TLS: cfg.SMTP.TLS, Auth: cfg.SMTP.Auth,
		Credentials: cfg.SMTP.Credentials, Refused: cfg.SMTP.Refused, HELO: outbox.Domain(cfg.From), KeepAlive: cfg.SMTP.KeepAlive}
	signer, err := cfg.DKIM.Signer(outbox.Domain(cfg.From))
	if err != nil {
		return fail(err)
	}
	doctorAtStart(cfg, log)
	if signer != nil {
		smtp.DKIM = signer
		log.Info("signing mail with DKIM", "domain", signer.Domain, "selector", signer.Selector)
	}
	// A PostgreSQL database may be shared by several daemons: their
	// outbox workers hold leases (Shared), and one at a time reads the
	// mailbox (lead).
	q := outbox.New(st, smtp, metricsOutbox(m, outbox.Options{Logger: log, Connections: cfg.SMTP.Connections, Shared: !st.Locks()}))
	var lead, turn func(context.Context, func(context.Context) error) error
	if !st.Locks() {
		lead = func(ctx context.Context, read func(context.Context) error) error {
			return pgstore.Lead(ctx, st, pgstore.LockIMAP, pgstore.LeadPoll, log, read)
		}
		turn = pgstore.NewTurns(st, pgstore.LockApply).Run
	}
	d, err := daemon.New(st, e.rulesets, q, daemon.Config{Metrics: m,
		From: cfg.From, GM: cfg.GM, RepliesPerHour: cfg.Limits.RepliesPerHour, Strangers: cfg.Limits.Strangers,
		MaxText: cfg.Limits.MaxText, Templates: cfg.Templates, TickEvery: cfg.Tick, Lead: lead, Turn: turn, Retention: cfg.Retention, Logger: log,
		Relax: daemonRelax(cfg), RelaxGames: relaxGames(cfg), Policy: daemonPolicy(cfg), DNSGrace: cfg.Security.DNSGrace,
		PingPong: cfg.Limits.PingPong, StrangerDaily: cfg.Limits.StrangerRepliesPerDay,
		StrangerGlobal: cfg.Limits.StrangerRepliesGlobalPerDay, GMSecret: gmSecret, WebLink: ws.link(), UnsubURL: ws.base(),
		StrangerDomain: cfg.Limits.StrangerRepliesDomainPerDay, StrangerReserve: cfg.Limits.StrangerJoinReserve,
		NewPerDay: cfg.Games.NewPerDay, InvitesPerDay: cfg.Games.InvitesPerDay,
		MaxMail: int(cfg.Limits.MaxMail), ReadsPerMail: cfg.Limits.ReadsPerMail, MaxReply: cfg.Limits.MaxReply,
		MaxObservers: cfg.Limits.MaxObservers, PressPerDay: cfg.Limits.PressPerDay, PreviewsPerStep: cfg.Limits.PreviewsPerStep, PlusDistinct: cfg.Security.PlusDistinctDomains,
		OpenGames: cfg.Games.OpenBy, MaxOpenGames: cfg.Games.MaxOpen,
		Bounces: bounce.Policy{HardLimit: cfg.Bounces.HardLimit, Window: cfg.Bounces.Within,
			NoVERP: cfg.Bounces.NoVERP(), VERPLocal: cfg.Bounces.VERPLocal, VERPDelimiter: cfg.Bounces.VERPDelimiter},
	}, timeOptions(cfg)...)
	if err != nil {
		return fail(err)
	}
	wirePictures(d, smtp)
	r := imapin.New(imapin.Config{Addr: cfg.IMAP.Server, TLS: cfg.IMAP.TLS, Auth: cfg.IMAP.Auth, Credentials: cfg.IMAP.Credentials,
		Refused: cfg.IMAP.Refused,
		Inbox:   cfg.Folders.Inbox, Processed: cfg.Folders.Processed, Rejected: cfg.Folders.Rejected,
		Poll: !cfg.IMAP.UseIdle(), PollInterval: cfg.IMAP.PollInterval, Logger: log,
		MaxSize: cfg.Limits.MaxMail, BatchBytes: cfg.Limits.BatchBytes})
	metricsReader(m, r)
	return &server{cfg: cfg, st: st, q: q, d: d, r: r, ws: ws, log: log, smtp: smtp}, nil
}

// runDaemon runs the daemon, the control socket and, with ws, the web
// pages until ctx is done; each shuts down before it returns.
func runDaemon(ctx context.Context, e *env, st *store.Store, d *daemon.Daemon, r *imapin.Reader, ws *webSide, from string, log *slog.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Commands forwarded over the control socket change games through
	// a service with the daemon's mail hook, so a GM's change mails the
	// players. It replaces e.options, which may hold the CLI's own mail
	// hook (mailOptions): one hook, one mail.
	local := *e
	local.options = []game.Option{game.WithHooks(d.Mailer().Hook, d.Metrics().Hook)}
	// GM LIST, SHOW, LOG… by mail print what these commands print here.
	d.SetGMQuery(func(ctx context.Context, args []string) (string, error) {
		if len(args) < 2 || args[0] != "game" || !mailcmd.IsQuery(args[1]) {
			return "", fmt.Errorf("not a read-only game command: %q", args)
		}
		var out bytes.Buffer
		q := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: e.rulesets, options: local.options, shared: st}
		err := run(ctx, q, args)
		return out.String(), err
	})
	var wg sync.WaitGroup
	if st.Locks() && local.backup.Every > 0 {
		wg.Go(func() { backupLoop(ctx, st, local.backup, log) })
	}
	if st.Locks() {
		// bbolt: one process holds the file, and the GM's commands
		// come to it over the control socket. PostgreSQL is shared:
		// they open the database themselves.
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := ServeControl(ctx, &local, st, st.Path(), log); err != nil {
				log.Error("control socket", "err", err)
			}
		}()
	}
	if ws != nil {
		site, err := newSite(d.Service(), from, ws.url, log)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One-click unsubscribe (RFC 8058) beside the read-only pages.
			mux := ws.extra
			if mux == nil {
				mux = http.NewServeMux()
			}
			mux.Handle(unsub.Path, d.UnsubscribeHandler())
			mux.Handle("/", site)
			var h http.Handler = mux
			if err := ws.serve(ctx, h, log); err != nil {
				log.Error("web pages", "err", err)
			}
		}()
	}
	err := d.Run(ctx, r)
	cancel()
	wg.Wait()
	return err
}

func daemonRelax(c *config.Config) policy.Relax { return policy.Relax{NoSecret: c.Security.NoSecret} }

// relaxGames is security.no_secret_games for the daemon.
func relaxGames(c *config.Config) map[string]policy.Relax {
	m := map[string]policy.Relax{}
	for _, id := range c.Security.NoSecretGames {
		m[id] = policy.Relax{NoSecret: true}
	}
	return m
}

// daemonPolicy is the config's sender authentication: DMARC by default
// (demo and serve --embedded, which have no DNS, leave it off).
func daemonPolicy(c *config.Config) policy.Config {
	return policy.Config{AuthServID: c.Security.AuthServID, SenderAuth: policy.SenderAuth(c.Security.SenderAuth)}
}

// setGC sets the garbage collector's target of this process to percent
// (config gc_percent), unless GOGC is set in the environment: the
// operator's word wins. It is the process's own setting, made once by the
// command that runs the daemon.
func setGC(percent int, log *slog.Logger) {
	if v := os.Getenv("GOGC"); v != "" {
		log.Info("GOGC is set in the environment; gc_percent is left alone", "GOGC", v)
		return
	}
	debug.SetGCPercent(percent)
}

// newLogger logs to the command's standard error at level ("debug",
// "info", "warn", "error") in format ("text" or "json"), as log.level and
// log.format say.
func newLogger(e *env, level, format string) *slog.Logger {
	var l slog.Level
	l.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: l}
	var h slog.Handler = slog.NewTextHandler(e.stderr, opts)
	if format == "json" {
		h = slog.NewJSONHandler(e.stderr, opts)
	}
	// Every component logs through it: the secrets of subject tags are
	// blanked whoever logs them.
	return daemon.SafeLogger(slog.New(h))
}

// shellWord quotes s for a POSIX shell when it holds anything a shell
// would read (a DSN's ? and &), so that a printed command can be pasted.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// embeddedDB is where serve --embedded keeps its games by default: in the
// working directory, so that they outlive the daemon, as do the mailboxes
// beside it (mailDirBeside).
const embeddedDB = "orrery-embedded.db"

// serveEmbedded runs the daemon against in-process mail servers. given
// holds the flags named on the command line: a default port that is
// taken falls back to a free one, a port the user chose must be free.
func serveEmbedded(ctx context.Context, e *env, o embeddedOptions, given map[string]bool) error {
	log := newLogger(e, "warn", "text")
	setGC(config.DefaultGCPercent, log)
	if o.DB == "" {
		o.DB = embeddedDB
	}
	if spec, err := storeopen.Parse(o.DB); err == nil && spec.Kind == "bbolt" {
		if abs, err := filepath.Abs(spec.Path); err == nil {
			o.DB = abs
		}
		if o.MailDir == "" {
			o.MailDir = mailDirBeside(o.DB)
		}
	}
	if o.MailDir != "" {
		if abs, err := filepath.Abs(o.MailDir); err == nil {
			o.MailDir = abs
		}
	}
	var imapNote, smtpNote string
	var err error
	if o.IMAP, imapNote, err = pickAddr("imap-addr", o.IMAP, given["imap-addr"]); err != nil {
		return err
	}
	if o.SMTP, smtpNote, err = pickAddr("smtp-addr", o.SMTP, given["smtp-addr"]); err != nil {
		return err
	}
	x, err := startEmbedded(e, o, log)
	if err != nil {
		return err
	}
	defer x.close()
	kept := "the games are kept in " + x.st.Name()
	if o.MailDir != "" {
		kept += " and the mailboxes in " + o.MailDir
	}
	defer fmt.Fprintf(e.stdout, "orrery: %s; run orrery serve --embedded again to go on with them\n", kept)
	players := []string{"ann@example.org", "bob@example.org", "cyd@example.org"}
	for _, p := range players {
		x.srv.AddUser(p, "password")
	}
	fmt.Fprint(e.stdout, imapNote+smtpNote)
	host, port := splitAddr(x.srv.IMAPAddr)
	_, sport := splitAddr(x.srv.SMTPAddr)
	mail := fmt.Sprintf("  mail   %s (the mailboxes, kept when you stop; delete it with the db)\n", o.MailDir)
	if o.MailDir == "" {
		mail = "  mail   in memory: the mailboxes are lost when you stop (--mail-dir DIR keeps them)\n"
	}
	same := "\nThe ports and the mailboxes are the same at every start, so a mail client\nset up once keeps working.\n"
	if imapNote+smtpNote != "" || o.MailDir == "" {
		same = ""
	}
	fmt.Fprintf(e.stdout, `orrery: mail daemon with its own mail servers (nothing leaves this machine)

  IMAP   %s port %s, no encryption, password "password"
  SMTP   %s port %s, no encryption, any login
  bot    %s
  users  %s (any other address is created when mail reaches it)
  db     %s (kept when you stop; delete it to start afresh)
%s%s%s
Create a game for them (it is forwarded to this daemon), then write to the
bot from a mail client logged in as a player:

  orrery game new prosper --id demo1 --db %s \
      --player ann=ann@example.org --player bob=bob@example.org

Stop with Ctrl-C.
`, host, port, host, sport, x.bot, strings.Join(players, ", "), x.st.Name(), mail, webLine(x.web), same, shellWord(x.st.Name()))
	if o.Metrics != "" {
		mctx, stop := context.WithCancel(ctx)
		_, wait, err := serveMetrics(mctx, e, o.Metrics, x.d, x.st, (&outbox.SMTP{Addr: x.srv.SMTPAddr, TLS: "none"}).Probe, log)
		if err != nil {
			stop()
			return err
		}
		defer wait()
		defer stop()
	}
	return runDaemon(ctx, e, x.st, x.d, x.reader, x.web, x.bot, log)
}

// webLine is the web pages' line of the embedded servers' summary.
func webLine(ws *webSide) string {
	if ws == nil {
		return ""
	}
	return fmt.Sprintf("  web    %s/ (every game; each report mail links to its player's page)\n", ws.url)
}

func splitAddr(a string) (string, string) {
	i := strings.LastIndexByte(a, ':')
	if i < 0 {
		return a, ""
	}
	return a[:i], a[i+1:]
}
