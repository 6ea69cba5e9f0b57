// Command orrery hosts play-by-email games: it runs the mail daemon, and
// gives a game master every command to create, inspect, advance, verify and
// repair games from the shell.
//
// Each command lives in its own file and is listed once, in commands below.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games"
	"orrery/pbem/config"
	"orrery/pbem/doctor"
)

// command is one `orrery NAME ...` command.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env is what every command may use: its streams, so tests can capture them.
type env struct {
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	rulesets []engine.Ruleset // games.All() in production; tests add their own
	// options configure every game service a command opens: the mail
	// side's hooks, so GM changes queue their mails (see wire.go).
	options []game.Option
	// shared, when set, is the daemon's open store: commands that come in
	// over the control socket use it instead of opening the file.
	shared *store.Store
	// backup is the daemon's backup settings (its config's backup:), for
	// orrery db backup forwarded to it.
	backup config.Backup
	// resolver answers mail doctor's DNS questions (nil: the system's
	// resolver); tests answer from a fake, never from real DNS.
	resolver doctor.Resolver
}

func commands() []command {
	return []command{
		{"rulesets", "list the games this server can host", runRulesets},
		{"game", "create, show, advance and verify games (orrery game help)", runGame},
		{"orders", "send orders for a player, or check an orders file offline", runOrders},
		{"player", "show or change a player's settings (language, time zone), kept by address", runPlayer},
		{"dice", "redo a step's dice from its revealed seed, to check the server", runDice},
		{"mail", "mail check FILE.eml: what the daemon would do with a mail; mail queue, retry, drop: the mail going out; mail doctor: the domain's DNS for delivery", runMail},
		{"demo", "play a whole game by mail on in-process mail servers, and show the mails", runDemo},
		{"serve", "run the mail daemon (--config FILE), or try it with its own mail servers (--embedded)", runServe},
		{"db", "the database: db migrate (PostgreSQL's schema), db copy --from STORE --to STORE, db backup (a bbolt file, while in use)", runDB},
		{"secret", "make a GM secret for gm_secret_file (secret new [--out FILE])", runSecret},
		{"version", "print the build: version, VCS revision and time, Go version (also --version)", runVersion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, rulesets: games.All()}
	if err := runOrForward(ctx, e, os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "orrery:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout)
		return nil
	}
	if args[0] == "--version" || args[0] == "-version" {
		return runVersion(ctx, e, args[1:])
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(ctx, e, args[1:])
			if err != nil && strings.HasPrefix(err.Error(), "no game named ") {
				// Say where it was looked for: a wrong --db or config
				// is the usual cause.
				if db := dbOfArgs(e, args); db != "" {
					err = fmt.Errorf("%w in %s", err, db)
				}
			}
			return err
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	sort.Strings(names)
	return noCommand("", args[0], names, "commands: "+strings.Join(names, ", ")+"; see orrery help")
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "orrery: a play-by-email turn processor")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: orrery COMMAND [arguments] [--help]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every command that reads games takes --db FILE (default: db in --config, else orrery.db).")
	fmt.Fprintln(w, "orrery --version prints the build.")
}

// flags makes a flag set whose --help prints the command's usage line and
// description to the command's stdout. The flag package's own messages are
// silenced: parse turns a bad flag into one error with the usage line, and
// main prints it once. The set's name is the usage line, for that error.
func flags(e *env, name, usageLine, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(usageLine, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "Usage: orrery %s\n\n%s\n", usageLine, about)
		var has bool
		fs.VisitAll(func(*flag.Flag) { has = true })
		if has {
			fmt.Fprintln(e.stdout, "\nFlags:")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

// usageError is a bad command line: the flag package's complaint, then the
// command's usage line and where its help is.
type usageError struct {
	err   error
	usage string
}

func (u *usageError) Error() string {
	name, _, _ := strings.Cut(u.usage, " -")
	words := strings.Fields(name)
	cmd := "orrery " + strings.Join(words[:min(2, len(words))], " ")
	if len(words) > 1 && (words[1] == strings.ToUpper(words[1]) || strings.HasPrefix(words[1], "[")) {
		cmd = "orrery " + words[0] // "orders ID ...": the command is one word
	}
	return fmt.Sprintf("%v\nusage: orrery %s\n(%s --help says more)", u.err, u.usage, cmd)
}

func (u *usageError) Unwrap() error { return u.err }

// parse parses flags that may stand before, between or after positional
// arguments (`game show demo1 --as ann`), which the flag package alone does
// not allow, and returns the positional arguments. --help prints the whole
// help; a bad flag is a usageError.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	help := fs.Usage
	fs.Usage = func() {} // the flag package calls it on errors too
	defer func() { fs.Usage = help }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return nil, err
			}
			return nil, &usageError{err: err, usage: fs.Name()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }
