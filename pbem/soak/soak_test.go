//go:build soak

// Package soak is the soak and benchmark harness of issue 8: load, faults
// and growth against the real Dovecot and Postfix of scripts/mailstack.sh,
// and the report in docs/benchmarks/history.md. It is compiled only with the soak
// build tag, so neither `go test ./...` nor CI runs it. See README.md.
package soak

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/games"
	"orrery/pbem/config"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

var (
	flagParts   = flag.String("soak.parts", "hostile,load,backlog,faults,outage,diskfull,growth,fuzz", "the parts to run, comma-separated")
	flagGames   = flag.Int("soak.games", 200, "load: games, mixed rulesets")
	flagRounds  = flag.Int("soak.rounds", 2, "load: rounds of orders (each player with an open question sends one mail a round)")
	flagRate    = flag.Float64("soak.rate", 20, "load: order mails sent per second")
	flagBacklog = flag.Int("soak.backlog", 5000, "backlog: order mails waiting before the daemon starts")
	flagConns   = flag.Int("soak.connections", 0, "SMTP connections the daemon's outbox sends on at once (0: the outbox default)")
	flagBurst   = flag.Int("soak.burst", 500, "faults: order mails in the burst")
	flagKills   = flag.Int("soak.kills", 20, "faults: kill -9 of the daemon during the burst, at least")
	flagDBGames = flag.Int("soak.dbgames", 10000, "growth: games in the DB for the RSS figure")
	flagTurns   = flag.Int("soak.turns", 1000, "growth: turns of the long game")
	flagNoSync  = flag.Bool("soak.nosync", false, "diagnosis only: the daemon's DB skips fsync (a crash may then lose commits)")
	flagReport  = flag.String("soak.report", "", "write the Markdown report here (e.g. ../../docs/benchmarks/history.md); empty: only log it")
	flagCommand = flag.String("soak.command", "", "the command line to print at the top of the report")
	flagSection = flag.String("soak.section", "", "write the report as the section of -soak.report with this heading (\"Long fuzz run\"), replacing it or adding it at the end, instead of the whole file")
)

// stack is the real mail servers, from scripts/mailstack.sh env.
type stack struct {
	pbemtest.RealStack
	Doveadm string // doveadm's configuration (ORRERY_E2E_DOVEADM_CONF)
	// Postfix is Postfix's configuration directory, for postqueue: the
	// harness waits for its queue to empty between timed runs.
	Postfix string
}

const howTo = "the soak harness needs Dovecot and Postfix on loopback: run\n" +
	"  scripts/mailstack.sh install && scripts/mailstack.sh start && eval \"$(scripts/mailstack.sh env)\"\n" +
	"then go test -tags soak -run Soak -timeout 30m ./pbem/soak/ (ORRERY_E2E_IMAP, ORRERY_E2E_SMTP and ORRERY_E2E_LMTP are not set)"

// envStack is the stack the ORRERY_E2E_* variables name (IMAP, SMTP and
// LMTP empty when they name none).
func envStack() stack {
	real, _ := pbemtest.RealStackFromEnv()
	return stack{RealStack: real, Doveadm: os.Getenv("ORRERY_E2E_DOVEADM_CONF"), Postfix: os.Getenv("ORRERY_E2E_POSTFIX_CONF")}
}

func getStack(tb testing.TB) stack {
	tb.Helper()
	s := envStack()
	if s.IMAP == "" || s.SMTP == "" || s.LMTP == "" {
		tb.Skip(howTo)
	}
	for _, a := range []string{s.IMAP, s.SMTP, s.LMTP} {
		if !strings.HasPrefix(a, "127.0.0.1:") {
			tb.Fatalf("the soak harness only talks to 127.0.0.1, not %s", a)
		}
	}
	return s
}

// nonce makes account names unique per run, so parts never see old mail.
func nonce() string { return fmt.Sprintf("%x%04x", time.Now().UnixNano()&0xffffffff, rand.IntN(1<<16)) }

func (s stack) sender() *outbox.SMTP {
	return &outbox.SMTP{Addr: s.SMTP, TLS: "none", Timeout: 20 * time.Second}
}

// smtpOf is the SMTP sender at the end of snd's chain of wrappers (the
// backlog's recorder and counter), or nil.
func smtpOf(snd outbox.Sender) *outbox.SMTP {
	for {
		switch x := snd.(type) {
		case *outbox.SMTP:
			return x
		case *recorder:
			snd = x.next
		case countSender:
			snd = x.next
		default:
			return nil
		}
	}
}

// recorderOf is the backlog's recorder in snd's chain of wrappers, or nil.
func recorderOf(snd outbox.Sender) *recorder {
	for {
		switch x := snd.(type) {
		case *recorder:
			return x
		case countSender:
			snd = x.next
		default:
			return nil
		}
	}
}

func rulesets() []engine.Ruleset { return append(games.All(), toy.Ruleset()) }

// newDaemon opens db and makes a daemon for bot on the real servers, as
// `orrery serve` would, with IDLE unless poll.
func (s stack) newDaemon(db, bot string, poll bool, onSent func(outbox.Record)) (*store.Store, *daemon.Daemon, *imapin.Reader, error) {
	return s.newDaemonVia(db, bot, poll, s.sender(), onSent)
}

// newDaemonVia is newDaemon with the outbox sending through snd.
func (s stack) newDaemonVia(db, bot string, poll bool, snd outbox.Sender, onSent func(outbox.Record)) (*store.Store, *daemon.Daemon, *imapin.Reader, error) {
	var st *store.Store
	var err error
	if strings.HasPrefix(db, "postgres:") {
		st, err = openScaleDB(db)
	} else {
		st, err = store.Open(db, store.Options{Timeout: 5 * time.Second, NoSync: *flagNoSync})
	}
	if err != nil {
		return nil, nil, nil, err
	}
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("ORRERY_SOAK_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	opts := outbox.Options{MinBackoff: 200 * time.Millisecond, MaxBackoff: 2 * time.Second, Logger: log, OnSent: onSent, Connections: *flagConns}
	if os.Getenv("ORRERY_SOAK_CHILD_BACKOFF") == "default" {
		// The faults part's daemon backs off as in production (30 s): a
		// mail left waiting for its claim's backoff after a restart
		// would then show in the settle time.
		opts.MinBackoff, opts.MaxBackoff = 0, 0
	}
	var lead, turn func(context.Context, func(context.Context) error) error
	if !st.Locks() {
		// PostgreSQL: several daemons may share it, as orrery serve
		// runs them (cmd/orrery serve.go).
		opts.Shared = true
		poll := 500 * time.Millisecond
		if os.Getenv("ORRERY_SOAK_LEAD_POLL") == "serve" {
			// The failover figure: orrery serve's own poll.
			poll = pgstore.LeadPoll
		}
		lead = func(ctx context.Context, read func(context.Context) error) error {
			return pgstore.Lead(ctx, st, pgstore.LockIMAP, poll, log, read)
		}
		turn = pgstore.NewTurns(st, pgstore.LockApply).Run
	}
	q := outbox.New(st, snd, opts)
	d, err := daemon.New(st, rulesets(), q, daemon.Config{From: "Orrery <" + bot + ">", TickEvery: time.Second, Logger: log, RepliesPerHour: 1000000, Lead: lead, Turn: turn,
		// The backlog sends one seat's orders again and again under one
		// subject, on purpose: the ping-pong stop (3 answers an hour that
		// changed nothing) would rightly stop answering them, and the
		// drain would wait for acknowledgements that never come.
		PingPong: 1 << 30})
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	if os.Getenv("ORRERY_SOAK_PICTURES") != "" {
		// As orrery serve wires it (cmd/orrery wirePictures): each
		// report's board picture drawn when its mail is sent. The
		// backlog keeps each picture drawn in the drain, and its raw
		// limit B attaches the same bytes to the same mails, drawing
		// none: the same traffic for the servers, and the drawing is
		// the daemon's own work.
		if smtp := smtpOf(snd); smtp != nil {
			smtp.Pictures = d.Picture
			if rec := recorderOf(snd); rec != nil {
				smtp.Pictures = rec.keep(d.Picture)
			}
		}
	}
	r := imapin.New(imapin.Config{Addr: s.IMAP, TLS: "none", Poll: poll, PollInterval: 30 * time.Millisecond,
		IdleRestart: 30 * time.Second, MinBackoff: 50 * time.Millisecond, MaxBackoff: time.Second, RetryFailed: time.Second, Logger: log,
		Credentials: func(context.Context) (string, string, error) { return bot, "any", nil }})
	return st, d, r, nil
}

// TestMain runs the daemon as a child process (this test binary with
// ORRERY_SOAK_CHILD set to the bot's address) for the parts that kill it or
// measure its memory. The daemons it runs, in this process or the child,
// have the garbage collector's target orrery serve gives them
// (config.DefaultGCPercent), unless GOGC is set: the figures are the
// daemon's as it runs.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(config.DefaultGCPercent)
	}
	if bot := os.Getenv("ORRERY_SOAK_CHILD"); bot != "" {
		os.Exit(child(bot, os.Getenv("ORRERY_SOAK_CHILD_DB")))
	}
	os.Exit(m.Run())
}

func child(bot, db string) int {
	// The scale-out part holds each daemon to a share of a core: it
	// joins its cgroup before it does any work.
	if dir := os.Getenv("ORRERY_SOAK_CHILD_CGROUP"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			fmt.Fprintln(os.Stderr, "soak child:", err)
			return 2
		}
	}
	// And counts the mails each daemon's outbox sent: a line with the
	// kind of each (reply, report, …) on standard output.
	var onSent func(outbox.Record)
	if os.Getenv("ORRERY_SOAK_CHILD_SENT") != "" {
		var mu sync.Mutex
		onSent = func(r outbox.Record) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintln(os.Stdout, r.Kind)
		}
	}
	// And profiles each daemon's CPU until it is stopped.
	if path := os.Getenv("ORRERY_SOAK_CHILD_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "soak child:", err)
			return 2
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	st, d, r, err := envStack().newDaemon(db, bot, false, onSent)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak child:", err)
		return 2
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := d.Run(ctx, r); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "soak child:", err)
		return 1
	}
	return 0
}

// startChild starts the daemon as a child process on db for bot; env
// (NAME=value) is added to its environment.
func startChild(db, bot string, env ...string) (*exec.Cmd, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ORRERY_SOAK_CHILD="+bot, "ORRERY_SOAK_CHILD_DB="+db, "ORRERY_SOAK_CHILD_BACKOFF=default")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	return cmd, cmd.Start()
}

// row is one figure of the report.
type row struct {
	Part, Figure, Value, Target, Verdict string
}

type report struct {
	mu    sync.Mutex
	rows  []row
	notes []string
}

func (r *report) add(part, figure, value, target string, met *bool) {
	v := ""
	if met != nil {
		v = "met"
		if !*met {
			v = "**missed**"
		}
	}
	r.mu.Lock()
	r.rows = append(r.rows, row{part, figure, value, target, v})
	r.mu.Unlock()
}

func (r *report) note(format string, args ...any) {
	r.mu.Lock()
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func ptr(b bool) *bool { return &b }

func quantile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }

// TestSoak runs the parts named by -soak.parts in order and writes the
// report, even when a part fails (its failure is in the report too).
func TestSoak(t *testing.T) {
	var s stack
	for _, name := range strings.Split(*flagParts, ",") {
		if strings.TrimSpace(name) != "fuzz" { // fuzzing needs no mail server
			s = getStack(t)
			break
		}
	}
	rep := &report{}
	start := time.Now()
	parts := map[string]func(*testing.T, stack, *report){
		"hostile": partHostile, "load": partLoad, "backlog": partBacklog, "faults": partFaults, "growth": partGrowth,
		"outage": partOutage, "diskfull": partDiskfull, "fuzz": partFuzz, "pgfaults": partPGFaults,
	}
	var ran []string
	for _, name := range strings.Split(*flagParts, ",") {
		name = strings.TrimSpace(name)
		f := parts[name]
		if f == nil {
			t.Fatalf("no part %q (hostile, load, backlog, faults, outage, diskfull, growth, fuzz, pgfaults)", name)
		}
		t0 := time.Now()
		ok := t.Run(name, func(t *testing.T) { f(t, s, rep) })
		if !ok {
			rep.note("part %s FAILED; see the test log", name)
		}
		ran = append(ran, fmt.Sprintf("%s %s", name, time.Since(t0).Round(time.Second)))
	}
	md := rep.markdown(s, start, ran)
	t.Log("\n" + md)
	if *flagReport != "" {
		old, _ := os.ReadFile(*flagReport)
		if *flagSection != "" {
			md = replaceSection(string(old), *flagSection, md)
		} else {
			md += keptSections(string(old))
		}
		if err := os.WriteFile(*flagReport, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func serverVersions() string {
	var out []string
	if b, err := exec.Command("dovecot", "--version").Output(); err == nil {
		out = append(out, "Dovecot "+strings.TrimSpace(string(b)))
	}
	if b, err := exec.Command("postconf", "-d", "-h", "mail_version").Output(); err == nil {
		out = append(out, "Postfix "+strings.TrimSpace(string(b)))
	}
	if len(out) == 0 {
		return "unknown"
	}
	return strings.Join(out, ", ")
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			if _, v, ok := strings.Cut(l, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

func (r *report) markdown(s stack, start time.Time, ran []string) string {
	var b strings.Builder
	b.WriteString("# Orrery benchmarks\n\n")
	b.WriteString("Written by the soak harness (`pbem/soak`, see its README). Produced by:\n\n")
	cmd := *flagCommand
	if cmd == "" {
		cmd = "go test -tags soak -run Soak -timeout 30m ./pbem/soak/ -args " + strings.Join(os.Args[1:], " ")
	}
	fmt.Fprintf(&b, "```\n%s\n```\n\n", cmd)
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Date | %s |\n", start.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "| Machine | %s, %d cores (shared with other work), %s/%s |\n", cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "| Go | %s |\n", runtime.Version())
	fmt.Fprintf(&b, "| Servers | %s, on 127.0.0.1 (scripts/mailstack.sh) |\n", serverVersions())
	fmt.Fprintf(&b, "| Parts run | %s (total %s) |\n\n", strings.Join(ran, ", "), time.Since(start).Round(time.Second))
	b.WriteString("| Part | Figure | Value | Target (issue 8) | |\n|---|---|---|---|---|\n")
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range r.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", x.Part, x.Figure, x.Value, x.Target, x.Verdict)
	}
	if len(r.notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range r.notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

// replaceSection puts a report in doc as the section "## heading": in the
// place of a section of that heading, or at the end.
func replaceSection(doc, heading, report string) string {
	body := strings.TrimPrefix(report, "# Orrery benchmarks\n\n")
	sec := "## " + heading + "\n\n" + strings.ReplaceAll(body, "\n## Notes", "\n### Notes") + "\n"
	start := strings.Index(doc, "\n## "+heading+"\n")
	if start < 0 {
		return strings.TrimRight(doc, "\n") + "\n\n" + sec
	}
	end := strings.Index(doc[start+1:], "\n## ")
	rest := ""
	if end >= 0 {
		rest = doc[start+1+end+1:]
	} else {
		end = len(doc) - start - 1
	}
	// Rows of the old section whose figure this run did not measure stay
	// (a long run may be made a target at a time), after the new ones.
	have := map[string]bool{}
	for _, l := range strings.Split(sec, "\n") {
		if f := strings.Split(l, " | "); len(f) > 2 && strings.HasPrefix(l, "| ") {
			have[f[0]+" | "+f[1]] = true
		}
	}
	var kept []string
	for _, l := range strings.Split(doc[start+1:start+1+end], "\n") {
		f := strings.Split(l, " | ")
		if len(f) > 2 && strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| Part ") && !have[f[0]+" | "+f[1]] {
			kept = append(kept, l)
		}
	}
	if len(kept) > 0 {
		i := strings.LastIndex(sec, "|\n") + 2 // after the table's last row
		sec = sec[:i] + strings.Join(kept, "\n") + "\n" + sec[i:]
	}
	return doc[:start+1] + sec + rest
}

// keptSections returns the sections of an earlier report written with
// -soak.section (every "## " section but the Notes), so that a full run
// keeps them.
func keptSections(doc string) string {
	var out strings.Builder
	parts := strings.Split(doc, "\n## ")
	for _, p := range parts[1:] {
		if strings.HasPrefix(p, "Notes\n") {
			continue
		}
		out.WriteString("\n## " + strings.TrimRight(p, "\n") + "\n")
	}
	return out.String()
}
