package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"orrery/engine/store/storeopen"
	"orrery/pbem/config"
	"orrery/pbem/daemon"
	"orrery/pbem/policy"
)

const mailAbout = `Tools for the mail the daemon reads.

  orrery mail check FILE.eml     what the daemon would do with this mail
                                 (FILE "-" reads standard input)

Prints whether the mail would be answered at all and why not, the sender,
the game and secret found, every line read as an order and every line not
read as one (each with its line number in the mail as sent, quotes
included), every error with its fix, and, with a config's auth_serv_id,
which Authentication-Results header sender authentication would read
("authres:": the topmost, and only if it carries that id and no other
header does) and why it is believed or not (an MTA that does not strip the
headers that came with a mail shows here). No database is needed for
that: the lines are read with the order words of every ruleset (--ruleset
NAME for one). With --db (or --config naming one) it adds what the
database and the config say: whether the game exists, the seat the sender
would act for and the secret's verdict, the sender's authentication
(DMARC, with the config's sender_auth, looked up in DNS), whether the
orders would be held as a stale copy, and the ruleset's own errors.
Nothing is changed or sent.

  While orrery serve runs on the same database the command goes through
  it: give the mail with -f FILE or on standard input then.

  --json prints {"reply", "why", "from", "game", "secret", "orders",
  "ignored", "errors", "auth_results", "routing"}: orders and ignored are
  lists of {"line", "text"}, errors of {"line", "text", "msg", "fix"}, and
  routing (with --db only) of the database's verdicts.`

func runMail(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "queue":
			return mailQueue(ctx, e, args[1:])
		case "retry":
			return mailRetry(ctx, e, args[1:])
		case "drop":
			return mailDrop(ctx, e, args[1:])
		case "doctor":
			return mailDoctor(ctx, e, args[1:])
		}
	}
	if len(args) == 0 || args[0] != "check" {
		if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintf(e.stdout, "Usage: orrery mail check [--json] [--db FILE] [--ruleset NAME] FILE.eml\n\n%s\n\n%s\n\nUsage: orrery mail doctor [--config FILE] [--selector S] [--relay-ip IP]\n\n%s\n", mailAbout, mailQueueAbout, mailDoctorAbout)
			return nil
		}
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			return noCommand("mail", args[0], []string{"check", "queue", "retry", "drop", "doctor"}, "see orrery mail help")
		}
		return fmt.Errorf("usage: orrery mail check|queue|retry|drop|doctor … (see orrery mail help)")
	}
	fs := flags(e, "mail check", "mail check [--json] [--db FILE] [--ruleset NAME] FILE.eml", mailAbout)
	asJSON := fs.Bool("json", false, "print JSON")
	ruleset := fs.String("ruleset", "", "read the lines with this ruleset's order words (default: every ruleset's; with --db: the game's)")
	dbPath := fs.String("db", "", "database file: add the game, the seat, the secret's and the sender's verdicts")
	file := fs.String("f", "", "the mail (instead of the FILE argument; - for standard input)")
	cfgPath := fs.String("config", "", "config file (default: ORRERY_CONFIG): the bot's address, sender_auth, auth_serv_id, max_text; its db implies --db")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if *file != "" {
		pos = append(pos, *file)
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: orrery mail check [--json] [--db FILE] FILE.eml (one mail; - for standard input)")
	}
	raw, err := readMail(e, pos[0])
	if err != nil {
		return err
	}
	cfg, err := mailCheckConfig(*cfgPath)
	if err != nil {
		return err
	}
	if *dbPath == "" {
		*dbPath = cfg.DB
	}
	var v *daemon.Verdict
	if *dbPath == "" {
		v = daemon.InspectWith(raw, e.rulesets, *ruleset, cfg.Limits.MaxText, policy.Config{AuthServID: cfg.Security.AuthServID})
	} else {
		if v, err = inspectWithDB(ctx, e, raw, *dbPath, cfg); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	printVerdict(e.stdout, v)
	return nil
}

// mailCheckConfig reads the keys of a config file that mail check uses
// (readConfig: decoded strictly, not checked as serve checks it), with
// serve's defaults for them; an empty config without a file.
func mailCheckConfig(path string) (*config.Config, error) {
	c, err := readConfig(configPath(path))
	if err != nil {
		return nil, err
	}
	if c == nil {
		c = &config.Config{}
	}
	if c.Security.SenderAuth == "" {
		c.Security.SenderAuth = "dmarc" // as orrery serve --config
	}
	return c, nil
}

func readMail(e *env, file string) ([]byte, error) {
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(io.LimitReader(e.stdin, 64<<20))
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, fmt.Errorf("read the mail: %w", err)
	}
	return data, nil
}

// inspectWithDB opens the database read-only in spirit (nothing is
// written) and asks a daemon over it, with no outbox, what it would do.
func inspectWithDB(ctx context.Context, e *env, raw []byte, path string, cfg *config.Config) (*daemon.Verdict, error) {
	st := e.shared
	if st == nil {
		var err error
		spec, err := storeopen.Parse(path)
		if err != nil {
			return nil, err
		}
		if st, err = storeopen.Open(ctx, spec, storeopen.Options{Timeout: 100 * time.Millisecond, NoMigrate: true}); err != nil {
			return nil, &lockedError{db: spec.Path, err: err}
		}
		defer st.Close()
	}
	from := cfg.From
	if from == "" {
		// Without the bot's address its Message-IDs cannot be told
		// from others, so no mail shows a step: nothing looks stale.
		from = "Orrery <orrery@unknown.invalid>"
	}
	d, err := daemon.New(st, e.rulesets, nil, daemon.Config{From: from, MaxText: cfg.Limits.MaxText,
		Policy: policy.Config{AuthServID: cfg.Security.AuthServID, SenderAuth: policy.SenderAuth(cfg.Security.SenderAuth)},
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	return d.Inspect(ctx, raw)
}

func printVerdict(w io.Writer, v *daemon.Verdict) {
	yes := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(w, "reply:   %s: %s\n", yes[v.Reply], v.Why)
	fmt.Fprintf(w, "from:    %s\n", orDash(v.From))
	if v.AuthResults != "" {
		fmt.Fprintf(w, "authres: %s\n", v.AuthResults)
	}
	fmt.Fprintf(w, "game:    %s\n", orDash(v.Game))
	if v.Secret != "" {
		fmt.Fprintf(w, "secret:  %s\n", v.Secret)
	}
	list := func(title string, lines []daemon.VerdictLine) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(w, "%s:\n", title)
		for _, l := range lines {
			fmt.Fprintf(w, "  line %d: %s\n", l.Line, l.Text)
		}
	}
	list("orders", v.Orders)
	switch {
	case v.OrdersFor == "preview":
		fmt.Fprintln(w, "         (PREVIEW: tried on a copy of the step and answered to the sender alone; not sent)")
	case v.OrdersFor != "":
		fmt.Fprintf(w, "         (held for %s, applied when it asks the sender for orders)\n", v.OrdersFor)
	}
	list("not read as orders", v.Ignored)
	if len(v.Errors) > 0 {
		fmt.Fprintln(w, "errors:")
		for _, e := range v.Errors {
			if e.Line > 0 {
				fmt.Fprintf(w, "  line %d: %s\n    %s\n", e.Line, e.Text, e.Msg)
			} else {
				fmt.Fprintf(w, "  %s\n", e.Msg)
			}
			if e.Fix != "" {
				fmt.Fprintf(w, "    fix: %s\n", e.Fix)
			}
		}
	}
	if r := v.Routing; r != nil {
		fmt.Fprintln(w, "database:")
		if r.GameFound {
			fmt.Fprintf(w, "  game:     found (%s)\n", r.Ruleset)
		}
		if len(r.Commands) > 0 {
			fmt.Fprintf(w, "  commands: %s\n", strings.Join(r.Commands, ", "))
		}
		fmt.Fprintf(w, "  sender:   %s\n", orDash(r.Sender))
		fmt.Fprintf(w, "  secret:   %s\n", orDash(r.Auth))
		if r.Player != "" {
			fmt.Fprintf(w, "  seat:     %s\n", r.Player)
		}
		if r.Stale != "" {
			fmt.Fprintf(w, "  held:     %s\n", r.Stale)
		}
		if r.Player != "" && r.Stale == "" && len(v.Orders) > 0 {
			fmt.Fprintf(w, "  orders:   %s\n", map[bool]string{true: "accepted by the ruleset", false: "refused by the ruleset (errors above)"}[r.Accepted])
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
