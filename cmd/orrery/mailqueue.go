package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
)

const mailQueueAbout = `The mail going out: the outbox, as mailq and postsuper are Postfix's.

  orrery mail queue [--dead] [--limit N] [--after SEQ] [--json]
                                 the mails waiting to be sent (with --dead:
                                 those given up on), oldest first: number,
                                 when queued, kind, recipient, subject,
                                 attempts, next attempt, last error
  orrery mail retry SEQ... | --all-dead
                                 send again now: a waiting mail is due at
                                 once; a mail given up on goes back into
                                 the queue, tried as if queued now
  orrery mail drop SEQ... --reason TEXT
                                 delete a waiting or given-up mail unsent;
                                 its game's log (game log) keeps a line
                                 saying it was dropped, and why

A mail whose stored copy is damaged is listed as "cannot be read" instead
of stopping the list; the outbox keeps trying it once an hour and sends
the rest meanwhile: drop it. Subjects are shown with their secrets
blanked, as in game log. Each takes --db FILE or --config FILE; while
orrery serve runs on the same database file the command goes through it.`

// mailQueue lists the outbox (orrery mail queue).
func mailQueue(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "mail queue", "mail queue [--dead] [--limit N] [--after SEQ] [--json]", mailQueueAbout)
	dead := fs.Bool("dead", false, "list the mails given up on instead of those waiting")
	limit := fs.Int("limit", 50, "list at most N mails (0: all)")
	after := fs.Uint64("after", 0, "list the mails after number SEQ (the next page)")
	asJSON := fs.Bool("json", false, "print one JSON object a mail")
	db := addDBFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("usage: orrery mail queue [--dead] [--limit N] [--after SEQ] [--json]")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	st := svc.Store()
	entries, err := outbox.List(ctx, st, *dead, *after, *limit)
	if err != nil {
		return fmt.Errorf("read the outbox: %w", err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, en := range entries {
			if err := enc.Encode(entryJSON(en)); err != nil {
				return err
			}
		}
		return nil
	}
	c, err := outbox.Count(st)
	if err != nil {
		return fmt.Errorf("count the outbox: %w", err)
	}
	what, n := "waiting to be sent", c.Queued
	if *dead {
		what, n = "given up on", c.Dead
	}
	fmt.Fprintf(e.stdout, "%d mail%s %s (waiting %d, given up on %d).\n", n, plural(n), what, c.Queued, c.Dead)
	now := time.Now()
	for _, en := range entries {
		printEntry(e.stdout, en, now)
	}
	if *limit > 0 && len(entries) == *limit {
		next := "orrery mail queue --after " + strconv.FormatUint(entries[len(entries)-1].Seq, 10)
		if *dead {
			next += " --dead"
		}
		fmt.Fprintf(e.stdout, "More: %s\n", next)
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// entryJSON is an entry as --json prints it: the delivery state and the
// headers, not the body (its text, HTML and attachments).
func entryJSON(en outbox.Entry) map[string]any {
	out := map[string]any{"seq": en.Seq, "dead": en.Dead}
	if en.Unreadable != "" {
		out["unreadable"] = en.Unreadable
		return out
	}
	it := en.Item
	out["queued"] = it.Queued
	out["attempts"] = it.Attempts
	out["next_attempt"] = it.NextAttempt
	out["kind"] = it.Mail.Kind
	out["game"] = it.Mail.Game
	out["to"] = it.Mail.To
	out["subject"] = daemon.RedactSubject(it.Mail.Subject)
	out["message_id"] = it.Mail.MessageID
	if it.LastError != "" {
		out["last_error"] = it.LastError
	}
	if it.Owner != "" {
		out["sending"] = it.Owner
	}
	return out
}

// printEntry writes one mail of the queue in two or three lines, within
// 78 columns but for long addresses, subjects and errors.
func printEntry(w io.Writer, en outbox.Entry, now time.Time) {
	if en.Unreadable != "" {
		fmt.Fprintf(w, "\n#%d  cannot be read: %s\n      drop it: orrery mail drop %d --reason \"damaged\"\n", en.Seq, en.Unreadable, en.Seq)
		return
	}
	it := en.Item
	kind := it.Mail.Kind
	if kind == "" {
		kind = "mail"
	}
	fmt.Fprintf(w, "\n#%d  %s  %s to %s\n", en.Seq, it.Queued.UTC().Format("2006-01-02 15:04 UTC"), kind, strings.Join(it.Mail.To, ", "))
	game := ""
	if it.Mail.Game != "" {
		game = "game " + it.Mail.Game + ", "
	}
	fmt.Fprintf(w, "      %s%q\n", game, daemon.RedactSubject(it.Mail.Subject))
	var state string
	switch {
	case en.Dead:
		state = fmt.Sprintf("given up after %d attempt%s", it.Attempts, plural(it.Attempts))
	case it.Owner != "":
		state = fmt.Sprintf("being sent now (attempt %d)", it.Attempts+1)
	case it.Attempts == 0 && !it.NextAttempt.After(now):
		state = "not tried yet, due now"
	case !it.NextAttempt.After(now):
		state = fmt.Sprintf("%d attempt%s, due again now", it.Attempts, plural(it.Attempts))
	default:
		state = fmt.Sprintf("%d attempt%s, next at %s", it.Attempts, plural(it.Attempts), it.NextAttempt.UTC().Format("2006-01-02 15:04 UTC"))
	}
	fmt.Fprintf(w, "      %s\n", state)
	if it.LastError != "" {
		fmt.Fprintf(w, "      last error: %s\n", it.LastError)
	}
}

// seqs reads the mail numbers of retry and drop.
func seqs(pos []string, usage string) ([]uint64, error) {
	if len(pos) == 0 {
		return nil, fmt.Errorf("usage: orrery %s (the numbers orrery mail queue shows)", usage)
	}
	var out []uint64
	for _, p := range pos {
		n, err := strconv.ParseUint(strings.TrimPrefix(p, "#"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a mail number: give the numbers orrery mail queue shows (#412 or 412)", p)
		}
		out = append(out, n)
	}
	return out, nil
}

// mailRetry sends mails again now (orrery mail retry).
func mailRetry(ctx context.Context, e *env, args []string) error {
	const usage = "mail retry SEQ... | --all-dead"
	fs := flags(e, "mail retry", usage, mailQueueAbout)
	allDead := fs.Bool("all-dead", false, "put every mail given up on back into the queue")
	db := addDBFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	var nums []uint64
	if *allDead {
		if len(pos) != 0 {
			return fmt.Errorf("usage: orrery %s: numbers or --all-dead, not both", usage)
		}
	} else if nums, err = seqs(pos, usage); err != nil {
		return err
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	st := svc.Store()
	if *allDead {
		// A page at a time: each retried mail leaves the dead letters,
		// so the next page starts after the last one seen.
		var after uint64
		for {
			page, err := outbox.List(ctx, st, true, after, 100)
			if err != nil {
				return err
			}
			if len(page) == 0 {
				break
			}
			for _, en := range page {
				after = en.Seq
				if en.Unreadable == "" {
					nums = append(nums, en.Seq)
				}
			}
		}
		if len(nums) == 0 {
			fmt.Fprintln(e.stdout, "No mail given up on to send again.")
			return nil
		}
	}
	var failed []error
	now := time.Now()
	for _, n := range nums {
		was, err := outbox.Retry(ctx, st, n, now)
		if err != nil {
			failed = append(failed, fmt.Errorf("#%d: %w", n, err))
			continue
		}
		how := "due now"
		if was.Dead {
			how = "back in the queue, due now"
		}
		fmt.Fprintf(e.stdout, "#%d %s to %s: %s.\n", n, kindOf(was), strings.Join(was.Item.Mail.To, ", "), how)
	}
	if len(failed) > 0 {
		return errors.Join(failed...)
	}
	fmt.Fprintln(e.stdout, "A running orrery serve sends them at its next look at the queue; otherwise the next one started does.")
	return nil
}

func kindOf(en outbox.Entry) string {
	if en.Item.Mail.Kind == "" {
		return "mail"
	}
	return en.Item.Mail.Kind
}

// mailDrop deletes mails unsent (orrery mail drop).
func mailDrop(ctx context.Context, e *env, args []string) error {
	const usage = "mail drop SEQ... --reason TEXT"
	fs := flags(e, "mail drop", usage, mailQueueAbout)
	reason := fs.String("reason", "", "why (required): kept in the game's log")
	db := addDBFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	nums, err := seqs(pos, usage)
	if err != nil {
		return err
	}
	if strings.TrimSpace(*reason) == "" {
		return fmt.Errorf("say why with --reason TEXT: the game's log keeps it beside the dropped mail")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	var failed []error
	for _, n := range nums {
		was, err := outbox.Drop(ctx, svc.Store(), n, *reason, time.Now())
		if err != nil {
			failed = append(failed, fmt.Errorf("#%d: %w", n, err))
			continue
		}
		switch {
		case was.Unreadable != "":
			fmt.Fprintf(e.stdout, "#%d (it could not be read) dropped.\n", n)
		case was.Item.Owner != "":
			fmt.Fprintf(e.stdout, "#%d %s to %s dropped; it was being sent at that moment and may still arrive.\n", n, kindOf(was), strings.Join(was.Item.Mail.To, ", "))
		default:
			fmt.Fprintf(e.stdout, "#%d %s to %s dropped, unsent.\n", n, kindOf(was), strings.Join(was.Item.Mail.To, ", "))
		}
	}
	return errors.Join(failed...)
}
