package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storeopen"
)

// runDB is `orrery db`: the database itself, apart from the games in it.
func runDB(ctx context.Context, e *env, args []string) error {
	usage := "usage: orrery db migrate [--db postgres:DSN | --config FILE] | db copy --from STORE --to STORE [--keep-source] | db unmove [--db STORE] | db backup [--out FILE]"
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "migrate":
		return runDBMigrate(ctx, e, args[1:])
	case "copy":
		return runDBCopy(ctx, e, args[1:])
	case "backup":
		return runDBBackup(ctx, e, args[1:])
	case "unmove":
		return runDBUnmove(ctx, e, args[1:])
	case "help", "--help", "-h":
		fmt.Fprintln(e.stdout, usage)
		fmt.Fprintln(e.stdout, "\n  migrate  bring a PostgreSQL database's schema up to this build's")
		fmt.Fprintln(e.stdout, "  copy     copy everything one store holds into a new one, verify every game, and mark the old one moved")
		fmt.Fprintln(e.stdout, "  unmove   take that mark off a store, to use it again")
		fmt.Fprintln(e.stdout, "  backup   copy a bbolt file while it is in use (through orrery serve if it runs)")
		return nil
	}
	return noCommand("db", args[0], []string{"migrate", "copy", "unmove", "backup"}, usage)
}

func runDBMigrate(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "db migrate", "db migrate [--db postgres:DSN | --config FILE]",
		"Applies to a PostgreSQL database the schema migrations it lacks (orrery serve\n"+
			"and game new do it too when they start), and says which. A bbolt file is\n"+
			"upgraded in place by whichever command opens it first.\n\n"+
			"  orrery db migrate --config /etc/orrery/config.yaml   # store: postgres, dsn_env: ...")
	d := addDBFlags(fs)
	if rest, err := parse(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("db migrate takes no arguments, got %q", rest)
	}
	name, _, err := d.resolve()
	if err != nil {
		return err
	}
	spec, err := storeopen.Parse(name)
	if err != nil {
		return err
	}
	if spec.Kind != "postgres" {
		return fmt.Errorf("%s is a bbolt file: it needs no migrate (the first command that opens it upgrades it); db migrate is for store: postgres", spec)
	}
	done, err := pgstore.Migrate(ctx, spec.DSN)
	if err != nil {
		return err
	}
	if len(done) == 0 {
		fmt.Fprintf(e.stdout, "%s: schema version %d, up to date\n", spec, pgstore.SchemaVersion())
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: applied migrations %v; schema version %d\n", spec, done, pgstore.SchemaVersion())
	// Open once, so that the key-value space's own layout (top-level
	// buckets, its schema version) is made or upgraded now too.
	st, err := storeopen.Open(ctx, spec, storeopen.Options{})
	if err != nil {
		return err
	}
	return st.Close()
}

func runDBCopy(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "db copy", "db copy --from STORE --to STORE [--no-verify]",
		"Copies everything a store holds (every game with its log, snapshots and\n"+
			"steps, the indexes, the outbox and the records of sent mail, the seen\n"+
			"mails, players' settings, bounces, budgets: every bucket and key) into\n"+
			"another, which must be new or empty, then verifies every game on the\n"+
			"copy by replaying its log (as game verify does). STORE is bbolt:FILE or\n"+
			"postgres:DSN (a postgres:// URL works alone). Stop orrery serve first: a\n"+
			"bbolt file is held by the daemon, and mail arriving during the copy\n"+
			"would be missing from it.\n\n"+
			"  orrery db copy --from bbolt:/var/lib/orrery/orrery.db --to \"postgres:$ORRERY_PG_DSN\"\n"+
			"  orrery db copy --from \"postgres:$ORRERY_PG_DSN\" --to bbolt:backup.db")
	from := fs.String("from", "", "the store to copy: bbolt:FILE or postgres:DSN")
	to := fs.String("to", "", "the new store: bbolt:FILE (must not exist) or postgres:DSN (empty)")
	noVerify := fs.Bool("no-verify", false, "skip replaying every game on the copy")
	keep := fs.Bool("keep-source", false, "leave the source in use (a copy for safe keeping): without it, the source is marked as moved, and later commands given it say where the games went")
	if rest, err := parse(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("db copy takes no arguments, got %q", rest)
	}
	if *from == "" || *to == "" {
		return errors.New("db copy needs --from STORE and --to STORE (bbolt:FILE or postgres:DSN)")
	}
	src, err := storeopen.Parse(*from)
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	dstSpec, err := storeopen.Parse(*to)
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	if src.Kind == "bbolt" {
		if _, err := os.Stat(src.Path); err != nil {
			return fmt.Errorf("--from: no database at %s", src.Path)
		}
	}
	if dstSpec.Kind == "bbolt" {
		if _, err := os.Stat(dstSpec.Path); err == nil {
			return fmt.Errorf("--to: %s exists; copy into a new file", dstSpec.Path)
		}
	}
	s, err := storeopen.Open(ctx, src, storeopen.Options{Timeout: time.Second, NoMigrate: true})
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			return fmt.Errorf("--from: %s is held by a running orrery serve: stop it first, so that nothing changes during the copy", src)
		}
		return fmt.Errorf("--from: %w", err)
	}
	defer s.Close()
	if mv, moved, err := store.MovedTo(ctx, s); err != nil {
		return fmt.Errorf("--from: %w", err)
	} else if moved {
		fmt.Fprintf(e.stdout, "note: %s was marked as moved to %s on %s; copying it all the same\n", s.Name(), mv.To, mv.At.Format("2006-01-02 15:04 MST"))
	}
	d, err := storeopen.Open(ctx, dstSpec, storeopen.Options{Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	defer d.Close()
	t0 := time.Now()
	n, err := store.CopyAll(ctx, d, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "copied %d games (%d buckets, %d keys) from %s to %s in %v\n",
		n.Games, n.Buckets, n.Keys, s.Name(), d.Name(), time.Since(t0).Round(time.Millisecond))
	if !*noVerify {
		if err := verifyCopy(ctx, e, d, n.Games); err != nil {
			return err
		}
	}
	if *keep {
		return nil
	}
	if err := store.MarkMoved(ctx, s, d.Name(), time.Now()); err != nil {
		return fmt.Errorf("the copy is made, but marking %s as moved failed (it is still usable; do not run games on both): %w", s.Name(), err)
	}
	fmt.Fprintf(e.stdout, "marked %s as moved to %s: commands given it now say where the games went (orrery db unmove --db %s uses it again)\n", s.Name(), d.Name(), dbArg(src))
	return nil
}

// verifyCopy replays every game on the copy d, which should hold games of
// them.
func verifyCopy(ctx context.Context, e *env, d *store.Store, games int) error {
	svc := game.New(d, e.rulesets)
	var bad []string
	checked := 0
	for page := (game.ListOptions{Limit: game.MaxListLimit}); ; {
		p, err := svc.ListGames(ctx, page)
		if err != nil {
			return fmt.Errorf("list the copied games: %w", err)
		}
		for _, g := range p.Games {
			v, err := svc.Verify(ctx, g.ID)
			checked++
			switch {
			case err != nil:
				bad = append(bad, fmt.Sprintf("%s: %v", g.ID, err))
			case !v.OK():
				bad = append(bad, fmt.Sprintf("%s: %s", g.ID, v.Problems[0]))
			}
		}
		if p.Next == "" {
			break
		}
		page.After = p.Next
	}
	if checked != games {
		bad = append(bad, fmt.Sprintf("%d games copied, but the copy lists %d", games, checked))
	}
	if len(bad) > 0 {
		for _, b := range bad {
			fmt.Fprintln(e.stdout, "verify:", b)
		}
		return fmt.Errorf("the copy in %s does not verify: %d problems (above)", d.Name(), len(bad))
	}
	fmt.Fprintf(e.stdout, "verified %d games on %s by replaying their logs: clean\n", checked, d.Name())
	return nil
}

// dbArg is how a command names the store s on its --db flag: a bbolt
// file by its path, PostgreSQL as postgres:DSN with the password
// redacted (the user knows it).
func dbArg(s storeopen.Spec) string {
	if s.Kind == "bbolt" {
		return s.Path
	}
	return s.String()
}

func runDBUnmove(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "db unmove", "db unmove [--db STORE | --config FILE]",
		"Takes off a store the mark orrery db copy left when it copied the store's\n"+
			"games elsewhere, so that commands use it again. Only do this when the copy\n"+
			"is not in use: games run on both would part ways.")
	d := addDBFlags(fs)
	if rest, err := parse(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return fmt.Errorf("db unmove takes no arguments, got %q", rest)
	}
	name, from, err := d.resolve()
	if err != nil {
		return err
	}
	spec, err := storeopen.Parse(name)
	if err != nil {
		return err
	}
	if spec.Kind == "bbolt" {
		if _, err := os.Stat(spec.Path); err != nil {
			return noDatabase(spec.Path, from)
		}
	}
	st, err := storeopen.Open(ctx, spec, storeopen.Options{Timeout: time.Second, NoMigrate: true})
	if err != nil {
		return err
	}
	defer st.Close()
	mv, moved, err := store.MovedTo(ctx, st)
	if err != nil {
		return err
	}
	if !moved {
		fmt.Fprintf(e.stdout, "%s is not marked as moved: nothing to do\n", st.Name())
		return nil
	}
	if _, err := store.ClearMoved(ctx, st); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s is in use again (it was marked as moved to %s on %s)\n", st.Name(), mv.To, mv.At.Format("2006-01-02 15:04 MST"))
	return nil
}
