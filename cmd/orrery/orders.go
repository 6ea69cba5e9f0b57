package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
)

const ordersAbout = `Sends orders for PLAYER in game ID, by the same path a mail takes (without
the mail): they are checked against PLAYER's view, stored if accepted, and
the step resolves when every order is in. Send again to replace them.

  orrery orders ID --as PLAYER -f FILE      (FILE "-" reads standard input)
  orrery orders check RULESET -f FILE       offline check of an orders file
  orrery orders check --game ID --as PLAYER -f FILE
                                            full check against the game now,
                                            without sending`

func runOrders(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "check" {
		return ordersCheck(ctx, e, args[1:])
	}
	fs := flags(e, "orders", "orders ID --as PLAYER -f FILE", ordersAbout)
	db := addDBFlags(fs)
	as := fs.String("as", "", "the player whose orders these are: a seat name, or the address that holds the seat")
	file := fs.String("f", "-", "orders file (- for standard input)")
	prompt := fs.String("prompt", "", "answer this prompt id (default: the player's open one)")
	source := fs.String("source", "cli", "recorded in the log as the orders' source (cli, gm)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *as == "" {
		return fmt.Errorf("usage: orrery orders ID --as PLAYER -f FILE")
	}
	text, err := readInput(e, *file)
	if err != nil {
		return err
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	if *as, err = seatName(ctx, svc, pos[0], *as); err != nil {
		return err
	}
	res, err := svc.Submit(ctx, game.Input{Game: pos[0], Player: *as, Text: text, Prompt: *prompt, Source: *source})
	if err != nil && res != nil && res.Accepted {
		// The orders are stored; what failed came after (a bot seat's
		// turn). Say so, so nobody sends them again.
		fmt.Fprintf(e.stdout, "Orders for %s accepted and stored:\n  %s\n", *as, strings.Join(res.Orders, "\n  "))
		return fmt.Errorf("after the orders were stored: %w", err)
	}
	if err != nil {
		return err
	}
	if !res.Accepted {
		fmt.Fprintf(e.stdout, "Orders for %s (%s) NOT accepted; nothing was changed:\n", *as, res.Prompt.Ask)
		printLineErrors(e.stdout, res.Errors)
		return errorCount(len(res.Errors))
	}
	verb := "accepted"
	if res.Replaced {
		verb = "accepted, replacing your earlier orders"
	}
	fmt.Fprintf(e.stdout, "Orders for %s %s:\n", *as, verb)
	for _, l := range res.Orders {
		fmt.Fprintf(e.stdout, "  %s\n", l)
	}
	if len(res.Orders) == 0 {
		fmt.Fprintln(e.stdout, "  (no orders: you pass)")
	}
	for _, s := range res.Steps {
		fmt.Fprintf(e.stdout, "step %d resolved (%s): turn %d, %s\n", s.N, s.Reason, s.Turn, s.Phase)
	}
	g, err := svc.Get(ctx, pos[0])
	if err != nil {
		return err
	}
	printAwaited(e, g)
	return nil
}

func printLineErrors(w io.Writer, errs []engine.LineError) {
	for _, le := range errs {
		if le.Line > 0 {
			fmt.Fprintf(w, "  line %d: %s\n", le.Line, le.Text)
			fmt.Fprintf(w, "    %s\n", le.Msg)
		} else {
			fmt.Fprintf(w, "  %s\n", le.Msg)
		}
		if le.Fix != "" {
			fmt.Fprintf(w, "    fix: %s\n", le.Fix)
		}
	}
}

func readInput(e *env, file string) (string, error) {
	var data []byte
	var err error
	if file == "-" {
		if isTerminal(e.stdin) {
			// Waiting silently on a terminal looks like a hang.
			fmt.Fprintln(e.stderr, "orrery: reading orders from standard input; end with Ctrl-D on a line of its own (or give -f FILE)")
		}
		data, err = io.ReadAll(io.LimitReader(e.stdin, 1<<20))
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return "", fmt.Errorf("read orders: %w", err)
	}
	return string(data), nil
}

// errorCount is the command's failure once every error has been printed.
func errorCount(n int) error {
	if n == 1 {
		return errors.New("1 error")
	}
	return fmt.Errorf("%d errors", n)
}
