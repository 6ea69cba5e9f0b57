package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// cli runs one orrery command line against db with the toy ruleset and
// returns its output and error.
func cli(t *testing.T, db, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, rulesets: []engine.Ruleset{toy.Ruleset()}}
	if db != "" {
		args = append(args, "--db", db)
	}
	err := run(context.Background(), e, args)
	return out.String() + errOut.String(), err
}

func must(t *testing.T, db, stdin string, args ...string) string {
	t.Helper()
	out, err := cli(t, db, stdin, args...)
	if err != nil {
		t.Fatalf("orrery %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func TestGameByCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	out := must(t, db, "", "game", "new", "toy", "--id", "demo1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	if !strings.Contains(out, "created demo1") || !regexp.MustCompile(`ann\s+ann@example.org\s+secret [a-z0-9]{10}`).MatchString(out) {
		t.Fatalf("game new printed:\n%s", out)
	}
	out, err := cli(t, db, "PUSH 7\n", "orders", "demo1", "--as", "ann", "-f", "-")
	if err == nil || !strings.Contains(out, "line 1: PUSH 7") || !strings.Contains(out, "fix: write e.g. PUSH 2") {
		t.Fatalf("bad orders: %v\n%s", err, out)
	}
	out = must(t, db, "push 2\n", "orders", "demo1", "--as", "ann", "-f", "-")
	if !strings.Contains(out, "PUSH 2") || !strings.Contains(out, "waiting for: bob") {
		t.Fatalf("orders printed:\n%s", out)
	}
	// Not due: an error (a non-zero exit) saying when it is due and
	// that --force resolves it now.
	out, err = cli(t, db, "", "game", "advance", "demo1")
	if err == nil || !strings.HasPrefix(err.Error(), "demo1 is not due: waiting for bob; it has no deadline, so it is due when every order is in; --force resolves it now") {
		t.Fatalf("advance before all orders: %v\n%s", err, out)
	}
	must(t, db, "", "game", "new", "toy", "--id", "timed", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org", "--turn-length", "72h")
	out, err = cli(t, db, "", "game", "advance", "timed")
	if err == nil || !regexp.MustCompile(`^timed is not due: waiting for ann, bob; it is due at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 3 days\), or sooner when every order is in; --force resolves it now`).MatchString(err.Error()) {
		t.Fatalf("advance before the deadline: %v\n%s", err, out)
	}
	out = must(t, db, "", "game", "advance", "demo1", "--force")
	if !strings.Contains(out, "step 1 resolved (forced by the GM)") {
		t.Fatalf("forced advance:\n%s", out)
	}
	out = must(t, db, "", "game", "show", "demo1", "--as", "bob")
	for _, want := range []string{"as bob", "No orders came from bob", "ann pushes 2+", "Seed of step 1:", "Commitment for step 2:", "Your move: How far do you push?"} {
		if !strings.Contains(out, want) {
			t.Errorf("game show lacks %q:\n%s", want, out)
		}
	}
	out = must(t, db, "", "game", "show", "demo1", "--public")
	if !strings.Contains(out, "ann pushes 2+") || strings.Contains(out, "Your move") || strings.Contains(out, "as bob") || !strings.Contains(out, "as an observer") {
		t.Errorf("game show --public (what observers get):\n%s", out)
	}
	out = must(t, db, "", "game", "verify", "demo1")
	if !strings.Contains(out, "demo1 verified: 2 states replayed") {
		t.Fatalf("verify:\n%s", out)
	}
	out = must(t, db, "", "game", "log", "demo1")
	if !strings.Contains(out, "rejected step 1 ann (cli)") || !strings.Contains(out, "defaults for bob") {
		t.Fatalf("log:\n%s", out)
	}
	out = must(t, db, "", "game", "list")
	if !strings.Contains(out, "demo1") || !strings.Contains(out, "ann,bob") {
		t.Fatalf("list:\n%s", out)
	}
}

func TestDiceCommandMatchesReport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=")
	must(t, db, "PUSH 1", "orders", "g", "--as", "ann", "-f", "-")
	show := must(t, db, "", "game", "show", "g", "--as", "ann")
	seed := regexp.MustCompile(`Seed of step 1:\s+([0-9a-f]{64})`).FindStringSubmatch(show)
	roll := regexp.MustCompile(`#1 ann pushes: d6 = (\d)`).FindStringSubmatch(show)
	commit := regexp.MustCompile(`its commitment, published before it:\s+([0-9a-f]{64})`).FindStringSubmatch(show)
	digest := regexp.MustCompile(`their digest:\s+([0-9a-f]{64})`).FindStringSubmatch(show)
	if seed == nil || roll == nil || commit == nil || digest == nil {
		t.Fatalf("report lacks seed, roll, commitment or digest:\n%s", show)
	}
	out := must(t, "", "", "dice", seed[1], "--commitment", commit[1], "--inputs", digest[1], "--count", "1")
	if !strings.Contains(out, "seed matches the commitment") || !strings.Contains(out, "roll #1: d6 = "+roll[1]) {
		t.Fatalf("dice check:\n%s\nreport said d6 = %s", out, roll[1])
	}
	if _, err := cli(t, "", "", "dice", seed[1], "--commitment", strings.Repeat("0", 64)); err == nil {
		t.Error("a wrong commitment was accepted")
	}
}

// TestUnknownCommandSuggests: a mistyped command or subcommand is answered
// with the nearest one, and a word near none gets no guess.
func TestUnknownCommandSuggests(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"game", "shwo", "x"}, "no command `game shwo`: did you mean `game show`? (see orrery game help)"},
		{[]string{"game", "advnace", "x"}, "did you mean `game advance`?"},
		{[]string{"gmae", "list"}, "no command `gmae`: did you mean `game`? (commands: "},
		{[]string{"db", "bakup"}, "no command `db bakup`: did you mean `db backup`?"},
		{[]string{"mail", "chek", "x.eml"}, "no command `mail chek`: did you mean `mail check`?"},
		{[]string{"game", "frobnicate"}, "no command `game frobnicate` (see orrery game help)"},
	} {
		_, err := cli(t, "", "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("orrery %s: %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}

func TestUsageAndErrors(t *testing.T) {
	out := must(t, "", "", "help")
	for _, c := range commands() {
		if !strings.Contains(out, c.name) {
			t.Errorf("help lacks %s", c.name)
		}
	}
	if _, err := cli(t, "", "", "frobnicate"); err == nil || !strings.Contains(err.Error(), "no command `frobnicate` (commands: ") {
		t.Errorf("unknown command: %v", err)
	}
	db := filepath.Join(t.TempDir(), "cli.db")
	must(t, db, "", "game", "new", "toy", "--id", "there", "--player", "ann=ann@example.org")
	if _, err := cli(t, db, "", "game", "show", "nope", "--as", "ann"); err == nil || !strings.Contains(err.Error(), "no game named \"nope\" in "+db) {
		t.Errorf("unknown game: %v", err)
	}
	if _, err := cli(t, db, "", "game", "new", "toy", "--id", "x", "--option", "finish"); err == nil || !strings.Contains(err.Error(), "NAME=VALUE") {
		t.Errorf("bad option: %v", err)
	}
}

func TestDBFromConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	db := filepath.Join(dir, "from-config.db")
	if err := os.WriteFile(cfg, []byte("db: "+db+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	must(t, "", "", "game", "new", "toy", "--id", "g", "--player", "ann=", "--config", cfg)
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the config's db was not used: %v", err)
	}
}

func TestGMRepairByCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "gm.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org", "--turn-length", "48h", "--remind", "24h")
	for i := 0; i < 3; i++ {
		must(t, db, "PUSH 1", "orders", "g", "--as", "ann", "-f", "-")
		must(t, db, "PUSH 1", "orders", "g", "--as", "bob", "-f", "-")
	}
	out := must(t, db, "", "game", "rollback", "g", "--to", "2", "--reason", "lost mail")
	if !strings.Contains(out, "rollback to ann, bob, GM") || !strings.Contains(out, "lost mail") {
		t.Fatalf("rollback:\n%s", out)
	}
	out = must(t, db, "", "game", "deadline", "g", "--extend", "24h", "--reason", "holiday")
	if !strings.Contains(out, "deadline to ann, bob, GM") {
		t.Fatalf("deadline:\n%s", out)
	}
	out = must(t, db, "", "game", "replace", "g", "bob", "--email", "carol@example.org")
	if !strings.Contains(out, "carol@example.org now plays bob; new secret") {
		t.Fatalf("replace:\n%s", out)
	}
	export := must(t, db, "", "game", "export", "g", "--with-secrets")
	edited := strings.Replace(export, `"finish": 30`, `"finish": 40`, 1)
	if edited == export {
		t.Fatalf("the export does not show the state readably:\n%s", export)
	}
	if _, err := cli(t, db, edited, "game", "import"); err == nil {
		t.Fatal("import over an existing game without --replace")
	}
	out = must(t, db, edited, "game", "import", "--replace")
	if !strings.Contains(out, "edited by hand") {
		t.Fatalf("import:\n%s", out)
	}
	out = must(t, db, "", "game", "verify", "g")
	if !strings.Contains(out, "g verified") {
		t.Fatalf("verify after edit:\n%s", out)
	}
	out = must(t, db, "", "game", "log", "g")
	for _, want := range []string{"rollback to step 1: lost mail", "gm       deadline", "gm       replace bob", "edit     step 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// TestCLIThroughControlSocket holds the database as the daemon does and
// checks that CLI commands are forwarded to it and run there.
func TestCLIThroughControlSocket(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "daemon.db")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	daemonEnv := &env{rulesets: []engine.Ruleset{toy.Ruleset()}}
	done := make(chan error, 1)
	go func() { done <- ServeControl(ctx, daemonEnv, st, db, slog.New(slog.DiscardHandler)) }()
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(ControlPath(db)); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fi, err := os.Stat(ControlPath(db))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("control socket: %v %v", err, fi)
	}
	forwarded := func(stdin string, args ...string) (string, error) {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{toy.Ruleset()}}
		err := runOrForward(context.Background(), e, append(args, "--db", db))
		return out.String(), err
	}
	out, err := forwarded("", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	if err != nil || !strings.Contains(out, "created g") {
		t.Fatalf("game new through the socket: %v\n%s", err, out)
	}
	out, err = forwarded("PUSH 2\n", "orders", "g", "--as", "ann", "-f", "-")
	if err != nil || !strings.Contains(out, "step 1 resolved") {
		t.Fatalf("orders (with standard input) through the socket: %v\n%s", err, out)
	}
	// The outbox through the daemon: with no from: configured, game new
	// queued nothing, so the queue is empty and says so.
	out, err = forwarded("", "mail", "queue")
	if err != nil || !strings.Contains(out, "0 mails waiting to be sent (waiting 0, given up on 0).") {
		t.Fatalf("mail queue through the socket: %v\n%s", err, out)
	}
	if _, err := forwarded("", "mail", "drop", "1", "--reason", "x"); err == nil || !strings.Contains(err.Error(), "#1: no such mail") {
		t.Fatalf("mail drop through the socket: %v", err)
	}
	if _, err := forwarded("", "game", "show", "nope", "--as", "ann"); err == nil || !strings.Contains(err.Error(), "no game named") {
		t.Fatalf("an error through the socket: %v", err)
	}
	// -f FILE is read by the CLI and sent; the daemon never opens it.
	file := filepath.Join(t.TempDir(), "ann.txt")
	os.WriteFile(file, []byte("PUSH 3\n"), 0o600)
	out, err = forwarded("", "orders", "g", "--as", "ann", "-f", file)
	if err != nil || !strings.Contains(out, "PUSH 3") {
		t.Fatalf("orders -f FILE through the socket: %v\n%s", err, out)
	}
	// --out is written here, owner-only, from what the daemon printed.
	exported := filepath.Join(t.TempDir(), "g.json")
	out, err = forwarded("", "game", "export", "g", "--out", exported)
	if err != nil || !strings.Contains(out, "wrote "+exported+" (mode 0600), through the running daemon") {
		t.Fatalf("export --out through the socket: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(exported); !strings.Contains(string(data), `"format": "orrery-game/1"`) {
		t.Errorf("the export written through the socket:\n%s", data)
	}
	assertOwnerOnly(t, exported)
	var direct bytes.Buffer
	e := &env{stdout: &direct, stderr: &direct}
	if err := forward(context.Background(), e, ControlPath(db), controlRequest{Args: []string{"game", "export", "g", "--out", "/tmp/x.json"}}); err == nil {
		t.Fatal("the daemon wrote a file named by a forwarded command")
	}
	err = forward(context.Background(), e, ControlPath(db), controlRequest{Args: []string{"orders", "g", "--as", "ann", "-f", "/etc/passwd"}})
	if err == nil || !strings.Contains(err.Error(), "reads and writes no files") {
		t.Fatalf("the daemon read a file named by a forwarded command: %v\n%s", err, direct.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ControlPath(db)); err == nil {
		t.Error("the socket outlived the daemon")
	}
}

// TestGameNewQueuesWelcomeMails: with a config naming the bot's address, a
// GM's command without a daemon queues its mails for the daemon to send.
func TestGameNewQueuesWelcomeMails(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "q.db")
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("db: "+db+"\nfrom: \"Orrery <orrery@example.org>\"\n"), 0o600)
	must(t, "", "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org", "--config", cfg)
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	items, err := outbox.Pending(st)
	if err != nil {
		t.Fatal(err)
	}
	to := map[string]bool{}
	for _, it := range items {
		for _, r := range it.Mail.To {
			to[r] = true
		}
	}
	if !to["ann@example.org"] || !to["bob@example.org"] {
		t.Fatalf("queued mails go to %v, want a welcome to each player", to)
	}
	st.Close()
	// game log shows them, after the input that caused them.
	log := strings.Split(must(t, "", "", "game", "log", "g", "--config", cfg), "\n")
	if len(log) < 3 || !strings.Contains(log[0], "create g with ann, bob") ||
		!strings.Contains(log[1], "mail     queued welcome to ann@example.org: [g ") ||
		!strings.Contains(log[2], "mail     queued welcome to bob@example.org: [g ") {
		t.Errorf("game log:\n%s", strings.Join(log, "\n"))
	}
}

// TestGameResend: without mail the command refuses before logging
// anything; with a config it queues the report of the asked turn to the
// asked player only, and the log records the GM's resend.
func TestGameResend(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("db: "+db+"\nfrom: \"Orrery <orrery@example.org>\"\n"), 0o600)
	t.Setenv("ORRERY_CONFIG", "")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	must(t, db, "PUSH 2", "orders", "g", "--as", "ann", "-f", "-")
	must(t, db, "PUSH 1", "orders", "g", "--as", "bob", "-f", "-")
	if _, err := cli(t, db, "", "game", "resend", "g"); err == nil || !strings.Contains(err.Error(), "no mail is set up") {
		t.Fatalf("resend without mail: %v", err)
	}
	if out := must(t, db, "", "game", "log", "g"); strings.Contains(out, "resend") {
		t.Fatalf("a refused resend was logged:\n%s", out)
	}
	out := must(t, "", "", "game", "resend", "g", "--to", "bob", "--turn", "1", "--config", cfg)
	if !strings.Contains(out, "resend to bob") {
		t.Errorf("resend output:\n%s", out)
	}
	if out := must(t, db, "", "game", "log", "g"); !regexp.MustCompile(`gm +resend step \d+ to bob`).MatchString(out) {
		t.Errorf("the log lacks the resend:\n%s", out)
	}
	if _, err := cli(t, "", "", "game", "resend", "g", "--to", "carl", "--config", cfg); err == nil || !strings.Contains(err.Error(), `no player "carl"`) {
		t.Errorf("resend to a stranger: %v", err)
	}
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	items, err := outbox.Pending(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || len(items[0].Mail.To) != 1 || items[0].Mail.To[0] != "bob@example.org" ||
		!strings.Contains(items[0].Mail.Subject, "Turn 1") || !strings.Contains(items[0].Mail.Subject, "report for bob") {
		t.Fatalf("queued: %+v", items)
	}
}

// bumped is a ruleset after an upgrade that changed its rules.
type bumped struct{ engine.Ruleset }

func (b bumped) Info() engine.Info {
	i := b.Ruleset.Info()
	i.Version++
	return i
}

// game list tells the GM which games were set up under older rules than
// the server's (their verify would fail), and says nothing of the others.
func TestGameListFlagsOlderRules(t *testing.T) {
	db := filepath.Join(t.TempDir(), "v.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	if out := must(t, db, "", "game", "list"); strings.Contains(out, "rules v") {
		t.Errorf("game list flags a game under the server's own rules:\n%s", out)
	}
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{bumped{toy.Ruleset()}}}
	if err := run(context.Background(), e, []string{"game", "list", "--db", db}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "[set up under rules v1; this server has v2]") {
		t.Errorf("game list does not flag the older rules:\n%s", out.String())
	}
}

// orders check reports every bad line, then fails with their count, in
// words that read right for one.
func TestOrdersCheckCountsErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	out, err := cli(t, db, "PUSH 1\nSHOVE 2\n", "orders", "check", "--game", "g", "--as", "ann", "-f", "-")
	if err == nil || err.Error() != "1 error" || !strings.Contains(out, "line 2") {
		t.Errorf("one bad line: %v\n%s", err, out)
	}
	if _, err := cli(t, db, "SHOVE 1\nSHOVE 2\n", "orders", "check", "--game", "g", "--as", "ann", "-f", "-"); err == nil || err.Error() != "2 errors" {
		t.Errorf("two bad lines: %v", err)
	}
}

// holdDB opens the bbolt file db as orrery serve does and serves its
// control socket with daemonEnv until t ends (nil: the toy ruleset), so
// that a command given db is forwarded to it; forward runs one command
// line that way, as the orrery binary does (runOrForward).
func holdDB(t *testing.T, db string, daemonEnv *env) (forward func(stdin string, args ...string) (string, error)) {
	t.Helper()
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if daemonEnv == nil {
		daemonEnv = &env{rulesets: []engine.Ruleset{toy.Ruleset()}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeControl(ctx, daemonEnv, st, db, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the control socket did not stop")
		}
		st.Close()
	})
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	return func(stdin string, args ...string) (string, error) {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{toy.Ruleset()}}
		err := runOrForward(context.Background(), e, append(args, "--db", db))
		return out.String(), err
	}
}
