package main

import (
	"context"
	"fmt"

	"orrery/engine/dice"
)

func runDice(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "dice", "dice SEED [--commitment HEX] [--sides 6] [--count 10]",
		`Redoes dice from a revealed seed, as any player can, to check the server.
Roll k of a d(n) is: the first 12 hex digits of sha256("SEED:k") read as a
number x, then x mod n + 1. The same with standard tools:

  printf %s SEED | sha256sum                    # must equal the commitment
  h=$(printf '%s:%d' SEED 7 | sha256sum | cut -c1-12); echo $(( 16#$h % 6 + 1 ))`)
	commitment := fs.String("commitment", "", "check the seed against this commitment (from the earlier report)")
	sides := fs.Int("sides", 6, "faces of the die")
	count := fs.Int("count", 10, "how many rolls to show")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: orrery dice SEED [--commitment HEX] [--sides N] [--count K]")
	}
	seed := pos[0]
	if *commitment != "" {
		if got := dice.Commitment(seed); got != *commitment {
			return fmt.Errorf("seed does NOT match the commitment: sha256 is %s", got)
		}
		fmt.Fprintln(e.stdout, "seed matches the commitment")
	}
	d := dice.New(seed)
	for i := 0; i < *count; i++ {
		v := d.Roll(*sides, "")
		fmt.Fprintf(e.stdout, "roll #%d: d%d = %d\n", i+1, *sides, v)
	}
	return nil
}
