package main

import (
	"context"
	"fmt"
	"time"

	"orrery/engine/game"
)

// playerVacation is `orrery player vacation ADDRESS FROM TO`: VACATION
// ALL for the address, from the GM's shell. FROM and TO are the first and
// last day away (UTC), as in the mail command.
func playerVacation(ctx context.Context, e *env, svc *game.Service, addr, fromS, toS string) error {
	from, err1 := time.Parse(time.DateOnly, fromS)
	to, err2 := time.Parse(time.DateOnly, toS)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the days are written year-month-day, like 2026-12-20 2027-01-03")
	}
	if to.Before(from) {
		return fmt.Errorf("the last day %s comes before the first %s", toS, fromS)
	}
	res, err := svc.VacationAll(ctx, addr, from, to.AddDate(0, 0, 1), "cli")
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s is away from %s to %s (inclusive), in every game it plays and joins later\n", game.CanonAddress(addr), fromS, toS)
	if len(res.Games) == 0 {
		fmt.Fprintln(e.stdout, "  declared in no game now (none it plays, or each has it already)")
	}
	for _, id := range res.Games {
		fmt.Fprintf(e.stdout, "  declared in %s\n", id)
	}
	return nil
}

// printAbsence prints what the server keeps of addr's time: its
// vacations for every game, and the yearly allowance it has left.
func printAbsence(ctx context.Context, e *env, svc *game.Service, addr string) error {
	a, err := svc.AbsenceOf(ctx, addr)
	if err != nil {
		return err
	}
	for _, v := range a.Vacations {
		fmt.Fprintf(e.stdout, "vacation for every game: %s to %s (inclusive)\n", v.From.Format(time.DateOnly), v.To.AddDate(0, 0, -1).Format(time.DateOnly))
	}
	if left, days, off := svc.AllowanceLeft(a); days > 0 {
		state := "spent when a deadline passes without its orders"
		if off {
			state = "not spent (AUTOVACATION off)"
		}
		fmt.Fprintf(e.stdout, "vacation days: %.1f of %d left this year, %s\n", left.Hours()/24, days, state)
	}
	return nil
}
