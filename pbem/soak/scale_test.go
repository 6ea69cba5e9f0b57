//go:build soak

package soak

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storeopen"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

var (
	flagScaleGames     = flag.String("scale.games", "10,10000,100000", "scale: database sizes, in games (mixed rulesets, 5 seats where the ruleset allows)")
	flagScaleParts     = flag.String("scale.parts", "list,tick,mail,rss,backlog,failover,scaleout", "scale: the figures to take besides the DB size (rss, backlog, failover and scaleout need the mail servers; failover, scaleout, and backlog's two-daemon row, -scale.pg; scaleout, root's cgroups)")
	flagScaleMails     = flag.Int("scale.mails", 300, "scale: order mails timed, in process, for one mail's own time")
	flagScaleBacklog   = flag.Int("scale.backlog", 5000, "scale: order mails in the backlog")
	flagScaleFailovers = flag.Int("scale.failovers", 5, "scale: kill -9s of the leading daemon timed for the failover figure (PostgreSQL)")
	flagScaleDir       = flag.String("scale.dir", "", "scale: keep the built databases here and reuse them (default: a temporary directory)")
	flagScalePG        = flag.String("scale.pg", os.Getenv("ORRERY_TEST_PG"), "scale: a PostgreSQL server (DSN) to take every figure on too, in a schema of its own, and the two-daemon ones (default: ORRERY_TEST_PG)")
	flagScaleReport    = flag.String("scale.report", "", "scale: write the table into this Markdown file (docs/benchmarks/history.md), between <!-- scale --> and <!-- /scale -->")
	flagScaleBbolt     = flag.Bool("scale.bbolt", true, "scale: take the figures on bbolt (false: only on -scale.pg, for a run that measures PostgreSQL alone)")
	flagScaleTwo       = flag.Bool("scale.two", true, "scale: with -scale.pg and the backlog part, drain a second backlog with two daemons")
	flagScaleRawRuns   = flag.Int("scale.rawruns", 2, "scale: runs of raw limit B after each drain (the ratio is to the mean of the first two; the others are logged)")
	flagScalePaced     = flag.Bool("scale.paced", true, "scale: after raw limit B, send the same mails again no faster than the drain did, for the mail servers' CPU at the drain's pace")
)

// scaleSample is how many games, spread over the database, the mail parts
// send orders to.
const scaleSample = 50

// scaleTable is the figures by row, then by database size. A row is known
// by its key (rowKey), not by its label: a label reworded from one run to
// the next still names the same figure, and a run that takes some parts
// keeps the other rows' cells under their key (keepEarlier).
type scaleTable struct {
	sizes []int
	rows  []string                  // keys, in the table's order
	label map[string]string         // key → the label shown
	cells map[string]map[int]string // key → size → value
	notes []string
}

// set puts value in the row labelled label, at size n.
func (st *scaleTable) set(label string, n int, value string) { st.put(rowKey(label), label, n, value) }

func (st *scaleTable) put(key, label string, n int, value string) {
	if st.cells == nil {
		st.cells = map[string]map[int]string{}
	}
	if st.label == nil {
		st.label = map[string]string{}
	}
	if st.cells[key] == nil {
		st.rows = append(st.rows, key)
		st.cells[key] = map[int]string{}
	}
	if _, ok := st.label[key]; !ok {
		st.label[key] = label
	}
	st.cells[key][n] = value
}

// cell is the value of the row labelled label at size n.
func (st *scaleTable) cell(label string, n int) string { return st.cells[rowKey(label)][n] }

// TestScale takes issue 22's figures at each database size: the DB's size,
// game list's time and peak memory, a catch-up game tick, one order mail's
// own time, the daemon's memory and a backlog's drain against the raw
// limit. The CLI figures run the orrery binary built from this tree.
//
//	go test -tags soak -run Scale -timeout 3h ./pbem/soak/ -args -scale.games=10,10000,100000 -scale.report=$PWD/docs/benchmarks/history.md
func TestScale(t *testing.T) {
	var sizes []int
	for _, f := range strings.Split(*flagScaleGames, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("-scale.games: %q is not a number of games", f)
		}
		sizes = append(sizes, n)
	}
	parts := map[string]bool{}
	for _, p := range strings.Split(*flagScaleParts, ",") {
		parts[strings.TrimSpace(p)] = true
	}
	if *flagScalePGLatency > 0 {
		if *flagScaleReport != "" {
			t.Fatal("-scale.pglatency with -scale.report: the table's PostgreSQL rows are for a database on loopback, and would not say this one was farther")
		}
		dsn := *flagScalePG
		*flagScalePG = delayPG(t, dsn, *flagScalePGLatency)
		t.Cleanup(func() { *flagScalePG = dsn })
	}
	s := envStack()
	if (parts["rss"] || parts["backlog"] || parts["failover"] || parts["scaleout"]) && (s.IMAP == "" || s.SMTP == "" || s.LMTP == "") {
		t.Log("the mail servers are not set up: the rss, backlog, failover and scaleout figures are skipped (" + howTo + ")")
		delete(parts, "rss")
		delete(parts, "backlog")
		delete(parts, "failover")
		delete(parts, "scaleout")
	}
	if (parts["failover"] || parts["scaleout"]) && *flagScalePG == "" {
		t.Log("no PostgreSQL server (-scale.pg or ORRERY_TEST_PG): the failover and scale-out figures and the PostgreSQL rows are skipped")
	}
	dir := *flagScaleDir
	if dir == "" {
		dir = t.TempDir()
	}
	bin := filepath.Join(t.TempDir(), "orrery")
	if out, err := exec.Command("go", "build", "-o", bin, "orrery/cmd/orrery").CombinedOutput(); err != nil {
		t.Fatalf("build orrery: %v\n%s", err, out)
	}
	tab := &scaleTable{sizes: sizes}
	start := time.Now()
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) { scaleAt(t, s, bin, dir, n, parts, tab) })
	}
	if *flagScaleReport != "" && !*flagScaleFresh {
		when, err := tab.keepEarlier(*flagScaleReport)
		if err != nil {
			t.Fatal(err)
		}
		if when != "" {
			tab.notes = append(tab.notes, "The cells this run did not measure are kept from an earlier run: "+when)
		}
	}
	md := tab.markdown(start)
	t.Log("\n" + md)
	if *flagScaleReport != "" {
		if err := spliceScale(*flagScaleReport, md); err != nil {
			t.Fatal(err)
		}
	}
}

func scaleAt(t *testing.T, s stack, bin, dir string, n int, parts map[string]bool, tab *scaleTable) {
	pristine := filepath.Join(dir, fmt.Sprintf("games-%d.db", n))
	if _, err := os.Stat(pristine); err != nil {
		t0 := time.Now()
		st, err := store.Open(pristine+".tmp", store.Options{Timeout: 5 * time.Second, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		newFleet(t, s, game.New(st, rulesets()), pristine, "", n)
		st.Close()
		if err := os.Rename(pristine+".tmp", pristine); err != nil {
			t.Fatal(err)
		}
		tab.set("games created (mixed rulesets, 5 seats; without fsync; not a target)", n, time.Since(t0).Round(time.Second).String())
	}
	fi, err := os.Stat(pristine)
	if err != nil {
		t.Fatal(err)
	}
	tab.set("DB size (games at their start)", n, fmt.Sprintf("%.1f MB (%.1f kB a game)", float64(fi.Size())/1e6, float64(fi.Size())/1e3/float64(n)))
	// One working copy at a time (at 100,000 games the file is about
	// 3.3 GB), removed as soon as its figures are taken; the pristine
	// file too, unless -scale.dir keeps it for the next run.
	if *flagScaleDir == "" {
		defer os.Remove(pristine)
	}
	db := filepath.Join(t.TempDir(), "work.db")
	if err := copyFile(pristine, db); err != nil {
		t.Fatal(err)
	}
	if *flagScaleBbolt {
		scaleParts(t, s, bin, db, n, parts, tab, "")
	}
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	if *flagScalePG == "" {
		return
	}
	pg := scalePG(t, bin, pristine, n, tab)
	scaleParts(t, s, bin, pg, n, parts, tab, " — PostgreSQL")
	if parts["backlog"] && *flagScaleTwo {
		// The same drain with a second daemon on the database: only one
		// of the two reads the mailbox; both send the outbox and tick.
		scaleBacklog(t, s, pg, sampleFleet(t, pg, n), *flagScaleBacklog, 2, tab.backlogAdder(t, n, "backlog, two daemons: ", " — PostgreSQL"))
	}
	if parts["scaleout"] {
		scaleOut(t, s, n, func() string { return scalePG(t, bin, pristine, n, tab) }, tab)
	}
	if parts["failover"] {
		took := scaleFailover(t, s, pg, *flagScaleFailovers)
		slices.Sort(took)
		tab.set(fmt.Sprintf("failover: kill -9 of the daemon reading the mailbox to the standby's handling of a mail delivered then (lock polled every %v, as orrery serve does): median / max (kills)", pgstore.LeadPoll)+" — PostgreSQL", n,
			fmt.Sprintf("%s / %s (%d)", ms(quantile(took, 0.5)), ms(quantile(took, 1)), len(took)))
	}
}

// backlogAdder keeps the drain's figures the table shows, in rows named
// prefix+figure+kind (the rest are logged).
func (st *scaleTable) backlogAdder(t *testing.T, n int, prefix, kind string) func(figure, value, target string, met *bool) {
	return func(figure, value, target string, met *bool) {
		t.Logf("%s%s%s: %s", prefix, figure, kind, value)
		switch {
		case strings.HasPrefix(figure, "drain of"):
			// The games drained are the sample's: fewer at 10 games.
			figure = fmt.Sprintf("drain of %d order mails over up to %d games (IMAP fetch, parse, apply, ack by SMTP)", *flagScaleBacklog, scaleSample)
		case strings.HasPrefix(figure, "ours as a ratio of raw limit B"), strings.HasPrefix(figure, "mails each of"),
			strings.HasPrefix(figure, "raw limit B at the drain's pace:"), strings.HasPrefix(figure, "to the last mail delivered"):
		default:
			return
		}
		if met != nil && !*met {
			value += " (**missed** " + target + ")"
		}
		st.set(prefix+figure+kind, n, value)
	}
}

// scaleParts takes the list, tick, mail, rss and backlog figures on db (a
// file, or postgres:DSN), in rows whose names end with kind.
func scaleParts(t *testing.T, s stack, bin, db string, n int, parts map[string]bool, tab *scaleTable, kind string) {
	paged := strings.Contains(runOut(bin, "game", "list", "--help"), "--limit")
	if parts["list"] {
		if paged {
			r := runCLI(t, bin, "game", "list", "--db", db)
			tab.set("`game list` (the first page, 100 games): time / peak RSS (CPU)"+kind, n, r.String())
			r = runCLI(t, bin, "game", "list", "--db", db, "--limit", "0")
			tab.set("`game list --limit 0` (every game, a page at a time): time / peak RSS (CPU)"+kind, n, r.String())
			r = runCLI(t, bin, "game", "list", "--db", db, "--awaiting", "--ruleset", "burning", "--limit", "20")
			tab.set("`game list --awaiting --ruleset burning --limit 20`: time / peak RSS (CPU)"+kind, n, r.String())
		} else {
			r := runCLI(t, bin, "game", "list", "--db", db)
			tab.set("`game list` (every game): time / peak RSS (CPU)"+kind, n, r.String())
		}
	}
	if parts["tick"] {
		// Every game was just created and not yet looked at: all due.
		r := runCLI(t, bin, "game", "tick", "--db", db)
		tab.set("catch-up `game tick` (every game due: created, not yet looked at): time / peak RSS (CPU)"+kind, n, r.String())
		r = runCLI(t, bin, "game", "tick", "--db", db)
		tab.set("the next `game tick` (nothing due)"+kind, n, r.wall.Round(time.Millisecond).String())
	}
	sample := sampleFleet(t, db, n)
	if parts["mail"] {
		ack, turn := ownTime(t, db, sample, *flagScaleMails)
		row := "one order mail's own time, raw mail to reply committed (in process, fsync), %s: p50 / p99 (CPU a mail; mails)"
		tab.set(fmt.Sprintf(row, "acknowledged")+kind, n, ack.String())
		tab.set(fmt.Sprintf(row, "completing a turn (every player's report mailed)")+kind, n, turn.String())
	}
	if parts["rss"] {
		sendQueued(t, s, db)
		rss, took := daemonRSS(t, s, db, sample)
		tab.set("daemon RSS after answering 20 order mails by SMTP: peak (VmHWM), of which heap (RssAnon) and mapped files (RssFile: the program, and bbolt's DB); time a mail, SMTP to answer"+kind, n,
			fmt.Sprintf("%.1f MB (%.1f + %.1f MB); %v", float64(rss.hwm)/1024, float64(rss.anon)/1024, float64(rss.file)/1024, took.Round(time.Millisecond)))
	}
	if parts["backlog"] {
		scaleBacklog(t, s, db, sample, *flagScaleBacklog, 1, tab.backlogAdder(t, n, "backlog: ", kind))
	}
}

// openScaleDB opens db: a bbolt file, or postgres:DSN.
func openScaleDB(db string) (*store.Store, error) {
	spec, err := storeopen.Parse(db)
	if err != nil {
		return nil, err
	}
	return storeopen.Open(context.Background(), spec, storeopen.Options{Timeout: 5 * time.Second})
}

// mustOpenScaleDB is openScaleDB that ends t when db does not open.
func mustOpenScaleDB(t testing.TB, db string) *store.Store {
	t.Helper()
	st, err := openScaleDB(db)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// scalePG copies the pristine bbolt database into PostgreSQL with orrery
// db copy (timed, and verified by replaying every game), and returns a
// working copy of it as postgres:DSN, dropped when t ends. With -scale.dir
// the copy is kept as a database of its own (orrery_scale_N) and later
// runs clone it with CREATE DATABASE … TEMPLATE, which takes seconds where
// the copy of 100,000 games takes many minutes; the db copy row then keeps
// the run's earlier figure. Without -scale.dir it is a schema of its own.
func scalePG(t *testing.T, bin, pristine string, n int, tab *scaleTable) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, *flagScalePG)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	copyInto := func(db string) {
		r := runCLI(t, bin, "db", "copy", "--from", "bbolt:"+pristine, "--to", db)
		tab.set("`db copy` bbolt to PostgreSQL, then every game verified by replay: time / peak RSS (CPU)", n, r.String())
	}
	var db string
	if *flagScaleDir == "" {
		db, _ = pgSchema(t, "scale")
		copyInto(db)
	} else {
		kept := fmt.Sprintf("orrery_scale_%d", n)
		var have bool
		if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", kept).Scan(&have); err != nil {
			t.Fatal(err)
		}
		if !have {
			// Copied under another name and renamed when whole: a run
			// killed halfway leaves no half copy under the kept name.
			tmp := kept + "_tmp"
			if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+tmp+" WITH (FORCE)"); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, "CREATE DATABASE "+tmp); err != nil {
				t.Fatal(err)
			}
			copyInto("postgres:" + pgDatabase(t, *flagScalePG, tmp))
			if _, err := conn.Exec(ctx, "ALTER DATABASE "+tmp+" RENAME TO "+kept); err != nil {
				t.Fatal(err)
			}
		}
		work := "orrery_work_" + nonce()
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+work+" TEMPLATE "+kept); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { dropPG(*flagScalePG, "DROP DATABASE IF EXISTS "+work+" WITH (FORCE)") })
		db = "postgres:" + pgDatabase(t, *flagScalePG, work)
	}
	spec, err := storeopen.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, spec.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var size int64
	if err := c.QueryRow(ctx, "SELECT pg_total_relation_size('orrery_kv'::regclass) + pg_total_relation_size('orrery_bucket'::regclass)").Scan(&size); err != nil {
		t.Fatal(err)
	}
	tab.set("DB size (games at their start) — PostgreSQL (tables and indexes)", n, fmt.Sprintf("%.1f MB (%.1f kB a game)", float64(size)/1e6, float64(size)/1e3/float64(n)))
	return db
}

// pgDatabase is dsn (a URL) naming the database name instead.
func pgDatabase(t *testing.T, dsn, name string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || !strings.HasPrefix(u.Scheme, "postgres") {
		t.Fatalf("-scale.pg with -scale.dir must be a postgres:// URL, not %q", dsn)
	}
	u.Path = "/" + name
	return u.String()
}

// dropPG runs a DROP on the -scale.pg server at the end of a test; a
// failure leaves a stray schema or database behind and is only logged.
func dropPG(dsn, stmt string) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return
	}
	defer c.Close(ctx)
	c.Exec(ctx, stmt)
}

// cliRun is one run of the orrery binary.
type cliRun struct {
	wall, cpu time.Duration
	maxRSS    int64 // kB
	out       int   // bytes printed
}

func (r cliRun) String() string {
	return fmt.Sprintf("%v / %.0f MB (CPU %v)", r.wall.Round(time.Millisecond), float64(r.maxRSS)/1024, r.cpu.Round(time.Millisecond))
}

type countWriter struct{ n *int }

func (c countWriter) Write(p []byte) (int, error) { *c.n += len(p); return len(p), nil }

// runCLI runs the orrery binary under /usr/bin/time for its peak RSS: the
// rusage Go's exec reports would hold this test process's own (the child is
// made with CLONE_VM, and Linux keeps the larger high-water mark at exec).
func runCLI(t *testing.T, bin string, args ...string) cliRun {
	t.Helper()
	var r cliRun
	rss := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command("/usr/bin/time", append([]string{"-o", rss, "-f", "%M %U %S", bin}, args...)...)
	cmd.Stdout = countWriter{&r.out}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("orrery %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	r.wall = time.Since(t0)
	data, err := os.ReadFile(rss)
	if err != nil {
		t.Fatalf("/usr/bin/time: %v", err)
	}
	var user, sys float64
	if _, err := fmt.Sscanf(strings.TrimSpace(string(data)), "%d %f %f", &r.maxRSS, &user, &sys); err != nil {
		t.Fatalf("/usr/bin/time wrote %q: %v", data, err)
	}
	r.cpu = time.Duration((user + sys) * float64(time.Second))
	return r
}

func runOut(bin string, args ...string) string {
	out, _ := exec.Command(bin, args...).CombinedOutput()
	return string(out)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// sampleFleet reads scaleSample games spread over the database (newFleet's
// ids), with their seats and secrets.
func sampleFleet(t *testing.T, db string, n int) *fleet {
	t.Helper()
	st := mustOpenScaleDB(t, db)
	defer st.Close()
	svc := game.New(st, rulesets())
	f := &fleet{db: db}
	for i := range min(n, scaleSample) {
		g, err := svc.Get(context.Background(), fmt.Sprintf("s%04d", i*n/min(n, scaleSample)))
		if err != nil {
			t.Fatal(err)
		}
		fg := fleetGame{id: g.ID, ruleset: g.Ruleset}
		for _, p := range g.Players {
			fg.seats = append(fg.seats, seat{p.Name, p.Email, p.Secret})
		}
		f.games = append(f.games, fg)
	}
	return f
}

// mailTimes are the own times of some order mails.
type mailTimes struct {
	lat []time.Duration
	cpu time.Duration
}

func (m mailTimes) String() string {
	if len(m.lat) == 0 {
		return "-"
	}
	slices.Sort(m.lat)
	return fmt.Sprintf("%s / %s (%s; %d)", ms(quantile(m.lat, 0.5)), ms(quantile(m.lat, 0.99)), ms(m.cpu/time.Duration(len(m.lat))), len(m.lat))
}

// ownTime hands m order mails to a daemon in this process, on db with
// fsync, one at a time, and times each Handle: parse, route, apply, answer
// and commit. The mails answer, game after game of the sample, the next
// awaited seat with its ruleset's bot's orders: some are acknowledged,
// some complete a turn. CPU is this process's, GC included.
func ownTime(t *testing.T, db string, f *fleet, m int) (ack, turn mailTimes) {
	t.Helper()
	ctx := context.Background()
	st := mustOpenScaleDB(t, db)
	defer st.Close()
	const bot = "orrery@scale.example.org"
	d, err := daemon.New(st, rulesets(), nil, daemon.Config{From: "Orrery <" + bot + ">", RepliesPerHour: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(4, 4))
	for i := range m {
		fg := f.games[i%len(f.games)]
		g, err := d.Service().Get(ctx, fg.id)
		if err != nil {
			t.Fatal(err)
		}
		raw := scaleOrderMail(t, d, g, bot, i, rnd)
		c0 := cpuTime()
		t0 := time.Now()
		if _, err := d.Handle(ctx, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: raw}); err != nil {
			t.Fatal(err)
		}
		took, cpu := time.Since(t0), cpuTime()-c0
		which := &ack
		if after, err := d.Service().Get(ctx, fg.id); err == nil && after.Step != g.Step {
			which = &turn
		}
		which.lat = append(which.lat, took)
		which.cpu += cpu
	}
	return ack, turn
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// scaleOrderMail is the i-th timed mail: the bot's orders of g's first
// awaited seat (or an empty mail from its first seat when nobody is).
func scaleOrderMail(t *testing.T, d *daemon.Daemon, g *game.Game, bot string, i int, rnd *rand.Rand) []byte {
	t.Helper()
	rs, err := engine.Find(rulesets(), g.Ruleset)
	if err != nil {
		t.Fatal(err)
	}
	who, orders := g.Players[0], ""
	found := false
	for _, name := range g.Waiting() {
		for _, pr := range g.PromptsFor(name) {
			if !pr.Kind.Blocks() {
				continue
			}
			v, err := d.Service().View(context.Background(), g.ID, name)
			if err != nil {
				t.Fatal(err)
			}
			who, _ = g.PlayerByName(name)
			orders, found = rs.Bot(v, pr, rnd), true
			break
		}
		if found {
			break
		}
	}
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: [%s %s] orders\r\nMessage-ID: <scale-%d-%s@players.example.org>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n-- \r\n%s\r\n",
		who.Email, bot, g.ID, who.Secret, i, nonce(), time.Now().Format(time.RFC1123Z), strings.ReplaceAll(orders, "\n", "\r\n"), who.Name)
}

// sendQueued sends, in this process, what the mail part left in db's
// outbox (its acknowledgements, and reports whose boards are drawn as they
// are sent: about 1,500 mails), so that the rss child's figure is that of
// its own 20 mails, not of that backlog.
func sendQueued(t *testing.T, s stack, db string) {
	t.Helper()
	st, d, r, err := s.newDaemon(db, "orrery-flush-"+nonce()+"@"+s.Domain, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx, r); close(done) }() // an empty mailbox: the outbox's work only
	err = waitOutbox(st, 10*time.Minute)
	cancel()
	<-done
	if err != nil {
		t.Fatal(err)
	}
}

// rssFigures are a process's peak RSS and its parts now, in kB.
type rssFigures struct{ hwm, anon, file int }

// daemonRSS runs the daemon as a child process on db, answers 20 order
// mails sent by SMTP, and returns its RSS and the time a mail.
func daemonRSS(t *testing.T, s stack, db string, f *fleet) (rssFigures, time.Duration) {
	t.Helper()
	ctx := context.Background()
	n := nonce()
	bot := "orrery-scale-" + n + "@" + s.Domain
	st := mustOpenScaleDB(t, db)
	svc := game.New(st, rulesets())
	sample := &fleet{db: db, bot: bot, games: f.games[:min(20, len(f.games))]}
	jobs, err := openJobs(ctx, svc, sample, rand.New(rand.NewPCG(3, 3)))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	jobs = jobs[:min(20, len(jobs))]
	child, err := startChild(db, bot)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Signal(syscall.SIGTERM); child.Wait() }()
	time.Sleep(time.Second)
	sender := s.sender()
	// A seat's answer is the first mail in its inbox beyond those there
	// before (a database kept by -scale.dir is used again).
	had := make([]int, len(jobs))
	for i, j := range jobs {
		msgs, _ := pbemtest.FetchAll(s.IMAP, j.seat.email, "any", "INBOX")
		had[i] = len(msgs)
	}
	t0 := time.Now()
	for i, j := range jobs {
		if errs := sender.Send(ctx, []outbox.Mail{j.mail(bot, fmt.Sprintf("rss-%d-%s@players.example.org", i, n))}); errs[0] != nil {
			t.Fatal(errs[0])
		}
	}
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		answered := 0
		for i, j := range jobs {
			if msgs, _ := pbemtest.FetchAll(s.IMAP, j.seat.email, "any", "INBOX"); len(msgs) > had[i] {
				answered++
			}
		}
		if answered == len(jobs) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	took := time.Since(t0) / time.Duration(max(1, len(jobs)))
	pid := child.Process.Pid
	return rssFigures{procStatus(pid, "VmHWM"), procStatus(pid, "RssAnon"), procStatus(pid, "RssFile")}, took
}

func (st *scaleTable) markdown(start time.Time) string {
	var b strings.Builder
	stores := "bbolt"
	for _, r := range st.rows {
		if strings.HasSuffix(r, pgKeySuffix) {
			stores = "bbolt and PostgreSQL"
		}
	}
	b.WriteString("<!-- scale -->\n## Scale: one machine, " + stores + ", 10 to 100,000 games (issue 22)\n\n")
	b.WriteString("Written by `TestScale` (`pbem/soak/scale_test.go`). Produced by:\n\n```\n")
	pg := ""
	if *flagScalePG != "" {
		// Not the DSN itself: it may hold a password.
		pg = ` -scale.pg="$ORRERY_TEST_PG"`
	}
	fmt.Fprintf(&b, "go test -tags soak -run Scale -timeout 6h ./pbem/soak/ -args -scale.games=%s -scale.parts=%s -scale.backlog=%d%s -scale.report=$PWD/docs/benchmarks/history.md\n```\n\n",
		*flagScaleGames, *flagScaleParts, *flagScaleBacklog, pg)
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&b, "%s; %s, %d cores shared with other work (load average at the end: %s); Go %s.\n\n",
		start.UTC().Format("2006-01-02 15:04 MST"), cpuModel(), runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "), runtime.Version())
	b.WriteString("| Figure |")
	for _, n := range st.sizes {
		fmt.Fprintf(&b, " %s games |", thousands(int64(n)))
	}
	b.WriteString("\n|---|")
	for range st.sizes {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range st.rows {
		fmt.Fprintf(&b, "| %s <!-- row:%s --> |", st.label[r], r)
		for _, n := range st.sizes {
			fmt.Fprintf(&b, " %s |", st.cells[r][n])
		}
		b.WriteString("\n")
	}
	for _, n := range st.notes {
		b.WriteString("\n- " + n)
	}
	b.WriteString("\n<!-- /scale -->\n")
	return b.String()
}

// spliceScale writes md between the scale markers of the file at path,
// or at its end when it has none.
func spliceScale(path, md string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	doc := string(old)
	if a := strings.Index(doc, "<!-- scale -->"); a >= 0 {
		if b := strings.Index(doc[a:], "<!-- /scale -->\n"); b >= 0 {
			doc = doc[:a] + md + doc[a+b+len("<!-- /scale -->\n"):]
			return os.WriteFile(path, []byte(doc), 0o644)
		}
	}
	// TestSoak rewrites the file section by section ("## "), and may have
	// dropped the opening marker with the section before it: find the
	// heading then, up to the closing marker or the next section.
	if a := strings.Index(doc, "\n## Scale: one machine"); a >= 0 {
		rest := doc[a+1:]
		end := len(rest)
		if b := strings.Index(rest, "<!-- /scale -->\n"); b >= 0 {
			end = b + len("<!-- /scale -->\n")
		} else if b := strings.Index(rest[1:], "\n## "); b >= 0 {
			end = b + 2
		}
		doc = doc[:a+1] + md + rest[end:]
		return os.WriteFile(path, []byte(doc), 0o644)
	}
	if doc != "" && !strings.HasSuffix(doc, "\n\n") {
		doc += "\n"
	}
	return os.WriteFile(path, []byte(doc+md), 0o644)
}
